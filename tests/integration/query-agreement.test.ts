/**
 * The reference-agreement property: for generated rows and generated queries, the SQL compiled
 * for SQLite and for PostgreSQL answers exactly what the reference evaluator in src/shared/query
 * answers — same ids, same order, same count.
 */
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/server/account/service.ts';
import { fieldColumn, linkTable } from '../../src/server/data/ddl.ts';
import { type EntityMeta, loadMeta } from '../../src/server/data/meta.ts';
import { queryRecords, summarizeRecords } from '../../src/server/data/records.ts';
import { createEntity, createField } from '../../src/server/data/schema-service.ts';
import { wroteTables } from '../../src/server/data/write-clock.ts';
import { createProject } from '../../src/server/project/service.ts';
import { evaluate, normalize, normalizeSummaryOrThrow, summarize } from '../../src/shared/query/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { rowsArb, validClauseArb } from '../unit/query/arbitraries.ts';
import { CTX, FIELDS } from '../unit/query/fixtures.ts';

const dialects = await testDialects();
const RUNS = Number(process.env.AGREEMENT_RUNS ?? 60);
const QUERIES_PER_RUN = 40;

type Row = Record<string, unknown> & { _id: string };
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

const sortArb = fc.array(
  fc.record({
    field: fc.constantFrom('name', 'qty', 'at', 'clock', 'owner', '_id'),
    order: fc.constantFrom('asc', 'desc'),
  }),
  { maxLength: 2 },
);
const groupArb: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    { arbitrary: validClauseArb, weight: 5 },
    { arbitrary: fc.record({ $and: fc.array(tie('node'), { maxLength: 3 }) }), weight: 1 },
    { arbitrary: fc.record({ $or: fc.array(tie('node'), { maxLength: 3 }) }), weight: 1 },
  ),
})).node;
const requestArb = fc.record({
  query: fc.array(groupArb, { maxLength: 3 }),
  sort: sortArb,
  page: fc.record({ index: fc.integer({ min: 1, max: 3 }), size: fc.integer({ min: 1, max: 12 }) }),
  count: fc.constant(true),
});

describe.each(dialects)('SQL agrees with the reference evaluator on %s', (dialect) => {
  let t: TestApp;
  let meta: EntityMeta;
  let db: AnyDb;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const kdb = t.app.database.db;
    const owner = await createUser(kdb, { account: 'agreeer1', phone: null, nickname: 'A', pwd: 'abc12345' });
    const project = await createProject(kdb, owner.id, 'Agreement');
    const target = await createEntity(kdb, project.id, { name: 'Target', code: 'target' });
    const e = await createEntity(kdb, project.id, { name: 'Items', code: 'items' });
    const { dialect: d } = t.app.database;
    await createField(kdb, d, e, { name: 'name', field: 'name', type: 'string' });
    await createField(kdb, d, e, { name: 'qty', field: 'qty', type: 'number' });
    await createField(kdb, d, e, { name: 'at', field: 'at', type: 'date' });
    await createField(kdb, d, e, { name: 'clock', field: 'clock', type: 'time' });
    await createField(kdb, d, e, { name: 'owner', field: 'owner', type: 'relate', relate: target.id });
    await createField(kdb, d, e, { name: 'tags', field: 'tags', type: 'collection', relate: target.id });
    meta = await loadMeta(kdb, project.id, 'items');
    expect(meta.queryTypes).toEqual(FIELDS);
    db = kdb as unknown as AnyDb;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function load(rows: Row[]): Promise<void> {
    const tags = meta.byCode.get('tags')!;
    await db.deleteFrom(meta.table).execute();
    await db.deleteFrom(linkTable(tags.id)).execute();
    for (const r of rows) {
      const values: Record<string, unknown> = { _id: r._id, _created_at: 0, _updated_at: 0 };
      for (const code of ['name', 'qty', 'at', 'clock', 'owner']) {
        const v = r[code];
        values[fieldColumn(meta.byCode.get(code)!.id)] = v === undefined ? null : v;
      }
      await db.insertInto(meta.table).values(values).execute();
      const list = Array.isArray(r.tags) ? (r.tags as string[]) : [];
      if (list.length) {
        await db
          .insertInto(linkTable(tags.id))
          .values(list.map((target_id, sort) => ({ owner_id: r._id, target_id, sort })))
          .execute();
      }
    }
    // Rows written straight into the table, as a change made outside the data calls: the write clock
    // is told, so no summary cached from the previous rows is answered (write-clock.ts).
    wroteTables([meta.table]);
  }

  it(`${RUNS} row sets × ${QUERIES_PER_RUN} queries answer the same ids, order and count`, async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        rowsArb,
        fc.array(requestArb, { minLength: QUERIES_PER_RUN, maxLength: QUERIES_PER_RUN }),
        async (rows, requests) => {
          // Stored rows: a missing collection is no links, like [] in the reference.
          const stored = rows.map((r) => ({ ...r, tags: Array.isArray(r.tags) ? r.tags : [] })) as Row[];
          await load(stored);
          for (const request of requests) {
            const n = normalize(request, CTX);
            if (!n.ok) continue;
            const expected = evaluate(stored, n.query, FIELDS);
            const got = await queryRecords(t.app.database.db, t.app.database.dialect, meta, n.query);
            expect({ ids: got.data.map((r) => r._id), count: got.count }, JSON.stringify(request)).toEqual({
              ids: expected.rows.map((r) => r._id),
              count: expected.count,
            });
            compared++;
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(compared).toBeGreaterThan(RUNS * QUERIES_PER_RUN * 0.5);
  }, 300_000);

  it('summaries agree: count, sum, avg, min, max overall and grouped', async () => {
    await fc.assert(
      fc.asyncProperty(
        rowsArb,
        fc.array(groupArb, { maxLength: 2 }),
        fc.constantFrom([], ['name'], ['owner'], ['clock', 'owner']),
        async (rows, query, group) => {
          const stored = rows.map((r) => ({ ...r, tags: [] })) as Row[];
          await load(stored);
          const n = normalize({ query }, CTX);
          if (!n.ok) return;
          const spec = normalizeSummaryOrThrow(
            {
              group,
              metrics: [
                { fn: 'count' },
                { fn: 'count', field: 'name' },
                { fn: 'sum', field: 'qty' },
                { fn: 'avg', field: 'qty' },
                { fn: 'min', field: 'qty' },
                { fn: 'max', field: 'at' },
              ],
            },
            FIELDS,
          );
          const hits = evaluate(stored, { ...n.query, offset: 0, limit: 100_000 }, FIELDS).rows;
          const expected = summarize(hits, spec, FIELDS);
          const got = await summarizeRecords(t.app.database.db, t.app.database.dialect, meta, n.query, spec);
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  }, 300_000);
});
