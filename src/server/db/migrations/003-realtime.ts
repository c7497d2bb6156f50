import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Co-editing storage: Y updates appended per document, periodically merged into one snapshot row.
 * `seq` is one global counter (not per document) so several server processes can append to the same
 * document without coordinating; Y updates commute, so only the set of rows matters, not their order.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  await db.schema
    .createTable('page_updates')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('doc_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('snapshot', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('data', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('page_updates_doc').on('page_updates').columns(['doc_id', 'seq']).execute();
}
