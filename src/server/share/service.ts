/**
 * The shared key/value store in the database: items by (project, model, type, owner, key), and the
 * auto-numbering counters. Callers pass a project the caller was authorised for.
 */
import type { Kysely } from 'kysely';
import type { DB, ShareItemsTable } from '../db/schema.ts';

export const SHARE_TYPES = ['project', 'public', 'private'] as const;
export type ShareType = (typeof SHARE_TYPES)[number];

/** Where one item lives: the owner is the user for private items, '' for the others. */
export interface ItemKey {
  projectId: string;
  model: string;
  type: ShareType;
  owner: string;
  key: string;
}

/** The item's columns as an equality filter. */
const itemIs = (k: ItemKey) =>
  ({ project_id: k.projectId, model: k.model, type: k.type, owner_id: k.owner, key: k.key }) as const;

export function findItem(db: Kysely<DB>, k: ItemKey): Promise<ShareItemsTable | undefined> {
  return db
    .selectFrom('share_items')
    .selectAll()
    .where((eb) => eb.and(itemIs(k)))
    .executeTakeFirst();
}

/** The first 1000 items of a (model, type, owner), by key. */
export function listItems(db: Kysely<DB>, k: Omit<ItemKey, 'key'>) {
  return db
    .selectFrom('share_items')
    .select(['key', 'value'])
    .where('project_id', '=', k.projectId)
    .where('model', '=', k.model)
    .where('type', '=', k.type)
    .where('owner_id', '=', k.owner)
    .orderBy('key')
    .limit(1000)
    .execute();
}

/** Store a value (JSON text): updates the existing item, or creates it as `createdBy`'s. */
export async function putItem(
  db: Kysely<DB>,
  k: ItemKey,
  value: string,
  existing: boolean,
  createdBy: string | null,
): Promise<void> {
  const now = Date.now();
  if (existing) {
    await db
      .updateTable('share_items')
      .set({ value, updated_at: now })
      .where((eb) => eb.and(itemIs(k)))
      .execute();
    return;
  }
  await db
    .insertInto('share_items')
    .values({
      project_id: k.projectId,
      model: k.model,
      type: k.type,
      owner_id: k.owner,
      key: k.key,
      value,
      created_by: createdBy,
      updated_at: now,
    })
    .execute();
}

export async function removeItem(db: Kysely<DB>, k: ItemKey): Promise<void> {
  await db
    .deleteFrom('share_items')
    .where((eb) => eb.and(itemIs(k)))
    .execute();
}

/** Take the counter's next number atomically (the first is 1); `by` takes a block, answering its last. */
export async function nextNumber(db: Kysely<DB>, projectId: string, key: string, by = 1): Promise<number> {
  const row = await db
    .insertInto('share_increments')
    .values({ project_id: projectId, key, value: by })
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'key'])
        .doUpdateSet((eb) => ({ value: eb('share_increments.value', '+', by) })),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

export async function resetCounter(db: Kysely<DB>, projectId: string, key: string): Promise<void> {
  await db
    .deleteFrom('share_increments')
    .where('project_id', '=', projectId)
    .where('key', '=', key)
    .execute();
}

/** Set several counters at once (all or none). */
export async function setCounters(
  db: Kysely<DB>,
  projectId: string,
  map: Record<string, number>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of Object.entries(map)) {
      await trx
        .insertInto('share_increments')
        .values({ project_id: projectId, key, value })
        .onConflict((oc) => oc.columns(['project_id', 'key']).doUpdateSet({ value }))
        .execute();
    }
  });
}
