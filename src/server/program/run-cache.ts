/**
 * What a run reads before its transaction — the metas of the tables its flow names and the project's
 * trigger programs — kept per project and reused while nothing they come from changed, so a run whose
 * project's schema did not change sends no statement for them.
 *
 * An entry is valid for the state it was read at:
 * - the project's schema clock (`write-clock.ts`), moved by every change of its tables, fields and
 *   programs made by this process (`schemaChanged`, after the commit) and, with Redis, by other
 *   processes' changes (the write clock's channel);
 * - with Redis, the project's shared schema version, read per run (a change made on another process is
 *   seen by the next run even before its pub/sub message arrives; Redis not answering trusts nothing);
 * - on SQLite, the connection's `PRAGMA data_version`, which moves when another connection (another
 *   process, a tool editing the file) commits anything: such a commit empties the entry.
 * The clocks are read before the rows, so a change committed while an entry is being filled leaves
 * it under the older clock and the next run reads again. Without Redis on PostgreSQL, this process's
 * clock is the whole truth (several processes need Redis: DESIGN "One package, one process, one port").
 */
import type SQLite from 'better-sqlite3';
import type { EntityMeta } from '../data/meta.ts';
import { schemaClock, sharedSchemaVersion } from '../data/write-clock.ts';
import type { Database } from '../db/index.ts';

/** The metas of a flow's tables and the project's triggers, as the engine loads them. */
export interface RunSchema<T> {
  metas: Map<string, EntityMeta>;
  triggers: T;
}

interface Entry<T> {
  clock: number;
  dataVersion: number | null;
  shared: string | null;
  metas: Map<string, EntityMeta>;
  triggers: T | undefined;
}

const entries = new WeakMap<object, Map<string, Entry<unknown>>>();
const MAX_PROJECTS = 500;
const versionStatements = new WeakMap<object, SQLite.Statement>();
let stats = { hits: 0, misses: 0 };

/** Hits (nothing read) and misses (something read) so far (tests). */
export function runCacheStats(): { hits: number; misses: number } {
  return { ...stats };
}

export function resetRunCacheStats(): void {
  stats = { hits: 0, misses: 0 };
}

/** SQLite's count of other connections' commits (null on PostgreSQL). */
function dataVersion(database: Database): number | null {
  const sqlite = database.sqlite as SQLite.Database | undefined;
  if (!sqlite) return null;
  let st = versionStatements.get(sqlite);
  if (!st) {
    st = sqlite.prepare('PRAGMA data_version').pluck();
    versionStatements.set(sqlite, st);
  }
  return Number(st.get());
}

/**
 * The metas of `refs` (read by `loadMetas` into the map it is given, only the missing ones) and the
 * project's triggers (`loadTriggers`), from the entry when it is still valid. Answers a map of the
 * run's own (callees' metas loaded later in the run do not go into the entry).
 */
export async function runSchema<T>(
  database: Database,
  projectId: string,
  refs: Iterable<string>,
  loadMetas: (metas: Map<string, EntityMeta>) => Promise<void>,
  loadTriggers: () => Promise<T>,
): Promise<RunSchema<T>> {
  const clock = schemaClock(projectId);
  const dv = dataVersion(database);
  const sharedP = sharedSchemaVersion(projectId);
  const shared = sharedP === null ? null : await sharedP;
  let byProject = entries.get(database.db);
  if (!byProject) {
    byProject = new Map();
    entries.set(database.db, byProject);
  }
  let entry = byProject.get(projectId) as Entry<T> | undefined;
  if (!entry || entry.clock !== clock || entry.dataVersion !== dv || entry.shared !== shared) {
    entry = { clock, dataVersion: dv, shared: shared ?? null, metas: new Map(), triggers: undefined };
    // Redis did not answer: this run reads everything and keeps nothing.
    if (shared !== undefined) {
      byProject.delete(projectId);
      if (byProject.size >= MAX_PROJECTS) byProject.delete(byProject.keys().next().value as string);
      byProject.set(projectId, entry as Entry<unknown>);
    }
  }
  let missing = entry.triggers === undefined;
  for (const r of refs) if (!entry.metas.has(r)) missing = true;
  if (missing) {
    stats.misses++;
    const metas = new Map(entry.metas);
    const [, triggers] = await Promise.all([
      loadMetas(metas),
      entry.triggers === undefined ? loadTriggers() : Promise.resolve(entry.triggers),
    ]);
    // Kept only when nothing moved meanwhile (else the next run reads again).
    if (schemaClock(projectId) === clock) {
      for (const [k, v] of metas) entry.metas.set(k, v);
      entry.triggers = triggers;
    }
    return { metas, triggers };
  }
  stats.hits++;
  return { metas: new Map(entry.metas), triggers: entry.triggers as T };
}

/** Forget what runs keep of a project (the cache-clear call, after a change made outside the app). */
export function clearRunCache(db: object, projectId: string): number {
  return entries.get(db)?.delete(projectId) ? 1 : 0;
}
