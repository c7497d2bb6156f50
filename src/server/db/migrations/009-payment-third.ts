import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Payment orders (package upgrades paid through Alipay or WeChat Pay) and third-party sign-in
 * (WeChat / WeCom identities bound to users, single-use OAuth states and bind tokens).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    /** basics | enterprise | custom */
    .addColumn('package', 'varchar(16)', (c) => c.notNull())
    /** In fen (1/100 yuan): integer money only. */
    .addColumn('amount', 'bigint', (c) => c.notNull())
    /** 0 unpaid, 1 paid. */
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    /** alipay | wxpay, once a payment was started; the provider that reported it paid, after. */
    .addColumn('pay_type', 'varchar(16)')
    /** The provider's own trade number, once paid. */
    .addColumn('trade_no', 'varchar(64)')
    .addColumn('paid_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('third_identities')
    /** weixin | wxwork */
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    /** The provider's id of the person: WeChat unionid/openid, or WeCom corpid:userid. */
    .addColumn('subject', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('third_identities_pk', ['provider', 'subject'])
    .execute();
  await db.schema
    .createIndex('third_identities_user_idx')
    .on('third_identities')
    .columns(['user_id', 'provider'])
    .unique()
    .execute();

  await db.schema
    .createTable('third_states')
    /** sha256 of the random state / one-time token (never stored in clear). */
    .addColumn('hash', 'varchar(64)', (c) => c.primaryKey())
    /** login | bind | token (a code exchanged for a session, answered by oauth/id). */
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    /** For bind: the user being bound; for token: the user signed in. */
    .addColumn('user_id', 'varchar(24)')
    /** JSON: where to go after, the custom project … */
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
