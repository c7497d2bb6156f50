/**
 * Per-table write clock: every write to a builder table moves its clock, and whatever is cached
 * from a table (grouped summaries, summary-cache.ts) is valid only for the clock it was read at.
 *
 * A write moves the clock twice: when it is made, inside its transaction (`noteWrite`), and once
 * its transaction ended (`settleWrites`, called by whoever commits). The second move matters where
 * reads run beside an open transaction (PostgreSQL's pool, SQLite's import worker): a read that
 * started before the commit saw the old rows and must not be kept under the new clock.
 * With REDIS_URL set, settled writes are announced so every process serving the same database
 * moves its clocks too, and each announcement also sets the table's shared version in Redis (a fresh
 * random token per write): a process answering from its own cache checks that version first, so the
 * call after a write made on another process is correct even before the pub/sub message arrives.
 * An answer waits for its process's announcements (app.ts, onSend), so "after a write" holds for the
 * client that made it.
 *
 * The same channel carries the **schema clock** of a project (`s_<project id>.<origin>` in a message; a process ignores its own): it moves
 * when the project's tables, fields or programs change (`schemaChanged`, called by whoever changed them
 * once the change is committed), and what is cached from them for program runs (program/run-cache.ts)
 * is valid only for the clock it was read at. With Redis the change also sets the project's shared
 * schema version, checked the same way as a table's (`sharedSchemaVersion`).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

const CHANNEL = 'lc:table-write';
const VERSION = 'lc:table-version:';
const TABLE = /^e_[0-9a-f]{24}$/;
const SCHEMA = /^s_([0-9a-f]{24})\.([A-Za-z0-9_-]{1,32})$/;
/** This process in schema messages: it does not move its schema clocks again on hearing its own. */
const ORIGIN = randomBytes(9).toString('base64url');
/** A Redis call slower than this is given up (the write stands; a cache read then misses). */
const REDIS_WAIT_MS = 1000;

const clocks = new Map<string, number>();
/** Tables each open transaction wrote (the key is the transaction's Kysely object). */
const pending = new WeakMap<object, Set<string>>();
let pub: Redis | undefined;
let sub: Redis | undefined;
let links = 0;
const listeners = new Set<(table: string) => void>();
const settledListeners = new Set<(tables: readonly string[]) => void>();

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

/**
 * Called once writes made by this process are settled (committed, or rolled back: a listener may hear
 * a write that did not stand); never for writes other processes announce. The socket channel tells
 * the project's open views (realtime/record-notices.ts).
 */
export function onTablesSettled(listener: (tables: readonly string[]) => void): () => void {
  settledListeners.add(listener);
  return () => settledListeners.delete(listener);
}

function settled(tables: readonly string[]): void {
  if (tables.length) for (const l of settledListeners) l(tables);
}

const schemaClocks = new Map<string, number>();

/** The project's schema clock now (0 before any change this process heard of). */
export function schemaClock(projectId: string): number {
  return schemaClocks.get(projectId) ?? 0;
}

function moveSchema(projectId: string): void {
  schemaClocks.set(projectId, (schemaClocks.get(projectId) ?? 0) + 1);
}

/**
 * The project's tables, fields or programs changed (called after the change is committed): moves its
 * schema clock here and, with Redis, in every process, and sets its shared schema version.
 */
export function schemaChanged(projectId: string): void {
  moveSchema(projectId);
  announce([`s_${projectId}`], `s_${projectId}.${ORIGIN}`);
}

/**
 * The project's schema version shared by every process (Redis): null without Redis (this process's
 * schema clock is the whole truth), undefined when Redis did not answer (nothing cached may be trusted).
 * Synchronous null without Redis, so a caller awaits nothing then.
 */
export function sharedSchemaVersion(projectId: string): Promise<string | undefined> | null {
  if (!pub) return null;
  return bounded(pub.get(`${VERSION}s_${projectId}`)).then((v) => (v === undefined ? undefined : (v ?? '')));
}

/** A write to `table` inside the transaction `trx` (or outside any: then it is settled at once). */
export function noteWrite(trx: object | null, table: string): void {
  move(table);
  if (!trx) {
    announce([table]);
    settled([table]);
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
  settled([...set]);
}

/** Writes made outside Kysely transactions (the import's own connection), once they are committed. */
export function wroteTables(tables: string[]): void {
  for (const t of tables) move(t);
  announce(tables);
  settled(tables);
}

/** Announcements not yet acknowledged by Redis. */
const inflight = new Set<Promise<unknown>>();

function bounded<T>(p: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, REDIS_WAIT_MS, undefined);
    timer.unref();
  });
  return Promise.race([p.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

function announce(tables: string[], message = tables.join(',')): void {
  if (!pub || tables.length === 0) return;
  const m = pub.multi();
  for (const t of tables) m.set(`${VERSION}${t}`, randomBytes(9).toString('base64url'));
  m.publish(CHANNEL, message);
  const p = bounded(m.exec());
  inflight.add(p);
  void p.finally(() => inflight.delete(p));
}

/** Resolves once this process's announcements so far reached Redis; null when none is pending. */
export function announced(): Promise<void> | null {
  if (inflight.size === 0) return null;
  return Promise.all([...inflight]).then(() => undefined);
}

/**
 * The table's version shared by every process (Redis): null without Redis (this process's clock is
 * the whole truth), undefined when Redis did not answer (then nothing cached may be trusted).
 */
export async function sharedVersion(table: string): Promise<string | null | undefined> {
  if (!pub) return null;
  const v = await bounded(pub.get(`${VERSION}${table}`));
  return v === undefined ? undefined : (v ?? '');
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
    for (const t of message.split(',')) {
      if (TABLE.test(t)) move(t);
      else {
        const s = SCHEMA.exec(t);
        if (s && s[2] !== ORIGIN) moveSchema(s[1]!);
      }
    }
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
