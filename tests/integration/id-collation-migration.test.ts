/**
 * Migration 023: on PostgreSQL, record ids of tables made before it (`_id` of builder tables,
 * `owner_id` / `target_id` of link tables, in the database's collation) turn to the "C" collation,
 * so the primary key serves the default order (EXPLAIN: no sort); managed indexes ending in the old
 * `_id` key are dropped (others stay); answers are the same before and after; running it again turns
 * nothing. SQLite: nothing to turn.
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/server/account/service.ts';
import { linkTable } from '../../src/server/data/ddl.ts';
import { type EntityMeta, loadMeta } from '../../src/server/data/meta.ts';
import { queryRecords, saveRecord, summarizeRecords } from '../../src/server/data/records.ts';
import { createEntity, createField } from '../../src/server/data/schema-service.ts';
import { QueryCompiler } from '../../src/server/data/sql-query.ts';
import { collateIds } from '../../src/server/db/migrations/023-id-collation.ts';
import { createProject } from '../../src/server/project/service.ts';
import {
  evaluate,
  type NormalizedQuery,
  normalizeOrThrow,
  normalizeSummaryOrThrow,
} from '../../src/shared/query/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('record id collation migration on %s', (dialect) => {
  let t: TestApp;
  let meta: EntityMeta;
  let tags: string;
  let tagIds: string[];
  const q = (body: object): NormalizedQuery =>
    normalizeOrThrow(body, { now: Date.now(), user: null, fields: meta.queryTypes });
  const ids = async (body: object) =>
    (await queryRecords(t.app.database.db, dialect, meta, q(body))).data.map((r) => String(r._id));
  const REQUESTS = [
    { page: { index: 2, size: 7 } },
    { sort: [{ field: '_id', order: 'desc' }], page: { index: 1, size: 9 } },
    { sort: [{ field: 'amount', order: 'asc' }], page: { index: 2, size: 10 } },
    {
      query: { $and: [{ field: 'amount', type: 'number', opt: 'gt', value: 10 }] },
      page: { index: 1, size: 20 },
    },
  ];

  async function collations(): Promise<string[]> {
    const r = await sql<{ c: string | null }>`SELECT collation_name AS c FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND ((table_name = ${meta.table} AND column_name = '_id')
          OR (table_name = ${tags} AND column_name IN ('owner_id', 'target_id')))
      ORDER BY table_name, column_name`.execute(t.app.database.db);
    return r.rows.map((x) => x.c ?? 'default');
  }
  async function plan(body: object): Promise<string> {
    const n = q(body);
    const c = new QueryCompiler(dialect, meta.columns);
    const stmt = sql`SELECT t._id FROM ${sql.table(meta.table)} t WHERE ${c.where(n.where)} ORDER BY ${c.orderBy(n)} LIMIT ${n.limit} OFFSET ${n.offset}`;
    return t.app.database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_sort = off`.execute(trx);
      const r = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${stmt}`.execute(trx);
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    });
  }
  async function reference(body: object): Promise<string[]> {
    const all = await queryRecords(
      t.app.database.db,
      dialect,
      meta,
      q({ page: { index: 1, size: 100_000 } }),
    );
    return evaluate(all.data, q(body), meta.queryTypes).rows.map((r) => String(r._id));
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { db } = t.app.database;
    const owner = await createUser(db, { account: 'idcoll1', phone: null, nickname: 'C', pwd: 'abc12345' });
    const project = await createProject(db, owner.id, 'Collation');
    const tag = await createEntity(db, project.id, { name: 'Tag', code: 'tag' });
    await createField(db, dialect, tag, { name: 'label', field: 'label', type: 'string' });
    const e = await createEntity(db, project.id, { name: 'Item', code: 'item' });
    await createField(db, dialect, e, { name: 'title', field: 'title', type: 'string' });
    await createField(db, dialect, e, { name: 'amount', field: 'amount', type: 'number' });
    const f = await createField(db, dialect, e, {
      name: 'tags',
      field: 'tags',
      type: 'collection',
      relate: tag.id,
    });
    tags = linkTable(f.id);
    const tagMeta = await loadMeta(db, project.id, 'tag');
    tagIds = [];
    for (const label of ['a', 'b', 'c']) tagIds.push(String((await saveRecord(db, tagMeta, { label }))._id));
    meta = await loadMeta(db, project.id, 'item');
    for (let i = 0; i < 60; i++)
      await saveRecord(db, meta, {
        title: `item ${i}`,
        amount: i % 7 === 0 ? null : (i * 13) % 40,
        tags: tagIds.filter((_, j) => (i + j) % 3 === 0),
      });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.runIf(dialect === 'sqlite')('has nothing to turn on SQLite', async () => {
    const before = await Promise.all(REQUESTS.map(ids));
    expect(await collateIds(t.app.database.db as unknown as Kysely<unknown>, dialect)).toBe(0);
    expect(await Promise.all(REQUESTS.map(ids))).toEqual(before);
  });

  it.runIf(dialect === 'postgres')(
    'turns old tables to "C" ids: the primary key serves the default order, same answers',
    async () => {
      const { db } = t.app.database;
      // Tables made from now on hold ids in "C" already.
      expect(await collations()).toEqual(['C', 'C', 'C']);
      expect(await plan({ page: { index: 2, size: 7 } })).not.toMatch(/Sort/);

      // Made as before migration 023: the database's collation, and managed indexes ending in `_id`.
      await sql`ALTER TABLE ${sql.table(meta.table)} ALTER COLUMN _id TYPE varchar(24) COLLATE "default"`.execute(
        db,
      );
      await sql`ALTER TABLE ${sql.table(tags)} ALTER COLUMN owner_id TYPE varchar(24) COLLATE "default",
      ALTER COLUMN target_id TYPE varchar(24) COLLATE "default"`.execute(db);
      expect(await collations()).toEqual(['default', 'default', 'default']);
      Object.assign(t.app.autoIndex.options, { slowMs: 0, recur: 2 });
      await ids({ sort: [{ field: 'amount', order: 'asc' }] });
      await ids({ sort: [{ field: 'amount', order: 'asc' }] });
      const n = q({});
      const spec = { group: ['title'], metrics: [{ fn: 'sum' as const, field: 'amount' }] };
      const s = normalizeSummaryOrThrow(spec, meta.queryTypes);
      for (let i = 0; i < 2; i++) {
        await saveRecord(db, meta, { title: 'w', amount: 1 });
        await summarizeRecords(db, dialect, meta, n, s);
      }
      await t.app.autoIndex.idle();
      t.app.autoIndex.options.enabled = false;
      const managed = await db.selectFrom('data_indexes').select(['name', 'kind']).orderBy('kind').execute();
      expect(managed.map((m) => m.kind)).toEqual(['query', 'summary']);
      expect(await plan({ page: { index: 2, size: 7 } })).toMatch(/Sort/);
      const before = await Promise.all(REQUESTS.map(ids));
      const linked = await ids({
        query: { $and: [{ field: 'tags', type: 'collection', opt: 'set', value: [tagIds[1]] }] },
      });
      expect(linked.length).toBeGreaterThan(0);

      expect(await collateIds(db as unknown as Kysely<unknown>, dialect)).toBe(2);
      expect(await collations()).toEqual(['C', 'C', 'C']);
      // The query index ended in the old `_id` key: dropped (built again on use); the covering one stays.
      const left = await db.selectFrom('data_indexes').select(['name', 'kind']).execute();
      expect(left.map((m) => m.kind)).toEqual(['summary']);
      const names = (
        await sql<{
          n: string;
        }>`SELECT indexname AS n FROM pg_indexes WHERE tablename = ${meta.table}`.execute(db)
      ).rows.map((r) => r.n);
      expect(names).not.toContain(managed.find((m) => m.kind === 'query')!.name);
      expect(names).toContain(left[0]!.name);

      const p = await plan({ page: { index: 2, size: 7 } });
      expect(p).toContain(`${meta.table}_pkey`);
      expect(p).not.toMatch(/Sort/);
      expect(await Promise.all(REQUESTS.map(ids))).toEqual(before);
      for (const r of REQUESTS) expect(await ids(r)).toEqual(await reference(r));
      expect(
        await ids({
          query: { $and: [{ field: 'tags', type: 'collection', opt: 'set', value: [tagIds[1]] }] },
        }),
      ).toEqual(linked);
      // Once turned, nothing more to turn.
      expect(await collateIds(db as unknown as Kysely<unknown>, dialect)).toBe(0);
      t.app.autoIndex.options.enabled = true;
    },
  );
});
