/**
 * What the server's managed objects of a table share: the adaptive indexes (auto-index.ts, rows in
 * `data_indexes`) and the rollups (rollup.ts, rows in `data_rollups`) keep the same bookkeeping
 * columns, count their uses in memory and write them in batches, are swept for disuse unless pinned,
 * and are shown to builders with the same figures (index-plugin.ts).
 */
import type { Kysely } from 'kysely';
import type { DataIndexesTable, DataRollupsTable, DB } from '../db/schema.ts';

/** The median of a few run times (the lower middle one of an even count). */
export function p50(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
}

/** The bookkeeping columns of a managed index or rollup row (the same in both tables). */
export type ManagedRow = Pick<
  DataIndexesTable & DataRollupsTable,
  'pinned' | 'uses' | 'last_used_at' | 'created_at' | 'cost_ms' | 'build_ms'
>;

/** What builders see of those columns. */
export interface ManagedFigures {
  pinned: boolean;
  uses: number;
  lastUsedAt: number;
  createdAt: number;
  costMs: number;
  buildMs: number;
}

/** A row's bookkeeping columns as builders see them (PostgreSQL answers bigints as strings). */
export function managedFigures(r: ManagedRow): ManagedFigures {
  return {
    pinned: Number(r.pinned) === 1,
    uses: Number(r.uses),
    lastUsedAt: Number(r.last_used_at),
    createdAt: Number(r.created_at),
    costMs: Number(r.cost_ms),
    buildMs: Number(r.build_ms),
  };
}

/** The two tables of managed objects; their bookkeeping columns are the same. */
export type ManagedTable = 'data_indexes' | 'data_rollups';

/**
 * The columns this module touches, under one name: both tables have them with the same types, so
 * one query text serves either (Kysely cannot type a query over a union of table names).
 */
type Managed = Kysely<{
  managed: ManagedRow & { id: string; entity_id: string };
  data_entities: DB['data_entities'];
}>;

const typed = (db: Kysely<DB>) => db as unknown as Managed;

/** Add use counts gathered in memory (id → uses) to their rows and stamp their last use; empties `uses`. */
export async function flushUseCounts(
  db: Kysely<DB>,
  table: ManagedTable,
  uses: Map<string, number>,
): Promise<void> {
  if (uses.size === 0) return;
  const now = Date.now();
  const batch = [...uses.entries()];
  uses.clear();
  for (const [id, n] of batch)
    await typed(db)
      .updateTable(table as unknown as 'managed')
      .set((eb) => ({ uses: eb('uses', '+', n), last_used_at: now }))
      .where('id', '=', id)
      .execute();
}

/**
 * Drop, one by one with `drop`, the unpinned rows unused for `unusedMs` and the rows of tables gone;
 * answers how many.
 */
export async function sweepUnused(
  db: Kysely<DB>,
  table: ManagedTable,
  unusedMs: number,
  now: number,
  drop: (id: string) => Promise<void>,
): Promise<number> {
  const rows = await typed(db)
    .selectFrom(`${table} as managed` as 'managed')
    .leftJoin('data_entities', 'data_entities.id', 'managed.entity_id')
    .select(['managed.id', 'managed.pinned', 'managed.last_used_at', 'data_entities.id as alive'])
    .execute();
  let n = 0;
  for (const r of rows) {
    const gone = r.alive === null;
    if (!gone && (Number(r.pinned) === 1 || Number(r.last_used_at) > now - unusedMs)) continue;
    await drop(r.id);
    n++;
  }
  return n;
}
