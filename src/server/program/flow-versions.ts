/**
 * Versions of a flow (a program or a dataset): release numbers the checked document and keeps it in
 * `flow_versions`, list them, read one back. One home for both flow types; each service checks its
 * own document before releasing and decides what a restored document becomes.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** What a release sets on the flow row. */
export interface Released {
  released: string;
  released_version: number;
  last_version: number;
  updated_at: number;
}

/** Release `document` (already checked) as the flow's next version, in one transaction. */
export function releaseDocument(
  db: Kysely<DB>,
  flowId: string,
  document: string,
  userId: string | null,
): Promise<Released> {
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const cur = await trx
      .selectFrom('flows')
      .select('last_version')
      .where('id', '=', flowId)
      .executeTakeFirstOrThrow();
    const version = Number(cur.last_version) + 1;
    await trx
      .insertInto('flow_versions')
      .values({ flow_id: flowId, version, document, created_by: userId, created_at: now })
      .execute();
    const set = { released: document, released_version: version, last_version: version, updated_at: now };
    await trx.updateTable('flows').set(set).where('id', '=', flowId).execute();
    return set;
  });
}

/** The flow's released versions, newest first. */
export async function listFlowVersions(db: Kysely<DB>, flowId: string) {
  const rows = await db
    .selectFrom('flow_versions')
    .select(['version', 'created_by', 'created_at'])
    .where('flow_id', '=', flowId)
    .orderBy('version', 'desc')
    .execute();
  return rows.map((r) => ({ version: r.version, createdBy: r.created_by, createdAt: Number(r.created_at) }));
}

/** The document of one released version, if there is such a version. */
export async function versionDocument(
  db: Kysely<DB>,
  flowId: string,
  version: number,
): Promise<string | undefined> {
  const v = await db
    .selectFrom('flow_versions')
    .select('document')
    .where('flow_id', '=', flowId)
    .where('version', '=', version)
    .executeTakeFirst();
  return v?.document;
}

/** Put `document` back into the flow's draft; answers what changed on the row. */
export async function restoreDraft(
  db: Kysely<DB>,
  flowId: string,
  document: string,
): Promise<{ draft: string; updated_at: number }> {
  const set = { draft: document, updated_at: Date.now() };
  await db.updateTable('flows').set(set).where('id', '=', flowId).execute();
  return set;
}
