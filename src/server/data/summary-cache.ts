/**
 * Grouped summaries cached per (table, table version, filter, group, metrics): a dashboard loaded
 * again answers from memory. An entry is kept only under the table's write clock read before its
 * query ran (write-clock.ts), and every write moves that clock and drops the table's entries, so a
 * summary is never answered from before a write that touched its table. With Redis, an entry also
 * records the table's shared version read before its query, and is answered only while that version
 * stands, so a write made by another process is never answered around either.
 */
import type { NormalizedQuery, SummaryAnswer, SummarySpec } from '../../shared/query/index.ts';
import { clockOf, onTableWrite, sharedVersion } from './write-clock.ts';

const MAX_ENTRIES = 1000;
/** Answers with more groups than this are not kept (they are rare and large). */
const MAX_GROUPS = 2000;

interface Entry {
  clock: number;
  /** The table's shared version (Redis) read before the query; null without Redis. */
  shared: string | null;
  answer: SummaryAnswer;
}

/** table → key → entry (a Map keeps insertion order: the oldest entry goes first when full). */
const tables = new Map<string, Map<string, Entry>>();
let size = 0;
const stats = { hits: 0, misses: 0 };

onTableWrite((table) => {
  const t = tables.get(table);
  if (!t) return;
  size -= t.size;
  tables.delete(table);
});

/** The cache key of a summary: the table's shape version, the normalized filter and the spec. */
export function summaryKey(version: string | number, q: NormalizedQuery, spec: SummarySpec): string {
  return JSON.stringify([version, q.nothing ? null : q.where, spec.group ?? [], spec.metrics, spec.accuracy]);
}

/** Answer from the cache, or compute (and keep, if no write came in meanwhile). */
export async function cachedSummary(
  table: string,
  key: string,
  compute: () => Promise<SummaryAnswer>,
): Promise<SummaryAnswer> {
  const clock = clockOf(table);
  const shared = await sharedVersion(table);
  const hit = tables.get(table)?.get(key);
  if (
    hit &&
    hit.clock === clock &&
    clockOf(table) === clock &&
    shared !== undefined &&
    hit.shared === shared
  ) {
    stats.hits++;
    return structuredClone(hit.answer);
  }
  stats.misses++;
  const answer = await compute();
  if (clockOf(table) === clock && shared !== undefined && answer.groups.length <= MAX_GROUPS) {
    let t = tables.get(table);
    if (!t) {
      t = new Map();
      tables.set(table, t);
    }
    if (!t.has(key)) size++;
    t.delete(key);
    t.set(key, { clock, shared, answer: structuredClone(answer) });
    while (size > MAX_ENTRIES) evictOne();
  }
  return answer;
}

function evictOne(): void {
  const first = tables.entries().next().value;
  if (!first) {
    size = 0;
    return;
  }
  const [name, t] = first;
  const k = t.keys().next().value;
  if (k !== undefined) t.delete(k);
  size--;
  if (t.size === 0) tables.delete(name);
}

/** Forget every summary of these tables (a project's cache clear). */
export function dropSummaries(tableNames: Iterable<string>): number {
  let n = 0;
  for (const name of tableNames) {
    const t = tables.get(name);
    if (!t) continue;
    n += t.size;
    size -= t.size;
    tables.delete(name);
  }
  return n;
}

/** Hits and misses so far (metrics and tests). */
export function summaryCacheStats(): { hits: number; misses: number; entries: number } {
  return { ...stats, entries: size };
}
