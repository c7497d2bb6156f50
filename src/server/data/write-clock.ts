/**
 * Per-table write clock: every write to a builder table moves its clock, and whatever is cached
 * from a table (grouped summaries, summary-cache.ts) is valid only for the clock it was read at.
 *
 * A write moves the clock twice: when it is made, inside its transaction (`noteWrite`), and once
 * its transaction ended (`settleWrites`, called by whoever commits). The second move matters where
 * reads run beside an open transaction (PostgreSQL's pool, SQLite's import worker): a read that
 * started before the commit saw the old rows and must not be kept under the new clock.
 * With REDIS_URL set, settled writes are announced so every process serving the same database
 * moves its clocks too.
 */
import type { Redis } from 'ioredis';

const CHANNEL = 'lc:table-write';
const TABLE = /^e_[0-9a-f]{24}$/;

const clocks = new Map<string, number>();
/** Tables each open transaction wrote (the key is the transaction's Kysely object). */
const pending = new WeakMap<object, Set<string>>();
let pub: Redis | undefined;
let sub: Redis | undefined;
let links = 0;
const listeners = new Set<(table: string) => void>();

/** The table's clock now (0 before any write this process heard of). */
export function clockOf(table: string): number {
  return clocks.get(table) ?? 0;
}

function move(table: string): void {
  clocks.set(table, (clocks.get(table) ?? 0) + 1);
  for (const l of listeners) l(table);
}

/** Called on every clock move (the summary cache drops the table's entries). */
export function onTableWrite(listener: (table: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A write to `table` inside the transaction `trx` (or outside any: then it is settled at once). */
export function noteWrite(trx: object | null, table: string): void {
  move(table);
  if (!trx) {
    announce([table]);
    return;
  }
  let set = pending.get(trx);
  if (!set) {
    set = new Set();
    pending.set(trx, set);
  }
  set.add(table);
}

/** The transaction `trx` ended (committed or rolled back): move the clocks of the tables it wrote. */
export function settleWrites(trx: object): void {
  const set = pending.get(trx);
  if (!set) return;
  pending.delete(trx);
  for (const t of set) move(t);
  announce([...set]);
}

/** Writes made outside Kysely transactions (the import's own connection), once they are committed. */
export function wroteTables(tables: string[]): void {
  for (const t of tables) move(t);
  announce(tables);
}

function announce(tables: string[]): void {
  if (!pub || tables.length === 0) return;
  pub.publish(CHANNEL, tables.join(',')).catch(() => undefined);
}

/** Hear other processes' writes (each process also hears its own: moving a clock twice is harmless). */
export async function connectWriteClock(redisUrl: string): Promise<void> {
  links++;
  if (pub) return;
  const { Redis } = await import('ioredis');
  pub = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  sub = pub.duplicate();
  sub.on('message', (channel: string, message: string) => {
    if (channel !== CHANNEL || message.length > 100_000) return;
    for (const t of message.split(',')) if (TABLE.test(t)) move(t);
  });
  await sub.subscribe(CHANNEL);
}

/** One app closed; the connection closes with the last one. */
export function closeWriteClock(): void {
  if (--links > 0) return;
  links = 0;
  sub?.disconnect();
  pub?.disconnect();
  sub = undefined;
  pub = undefined;
}
