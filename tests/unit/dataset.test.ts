/** Dataset documents: shape, the check against tables (coded errors), parameters, and the evaluator. */
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import schema from '../../schemas/dataset.schema.json' with { type: 'json' };
import {
  type Catalog,
  type CatalogEntity,
  evaluateDataset,
  parseDatasetDocument,
  planDataset,
  planShow,
} from '../../src/shared/dataset/index.ts';
import { QueryError } from '../../src/shared/query/error.ts';

const customers: CatalogEntity = {
  id: 'e00000000000000000000001',
  code: 'customers',
  fields: [
    { code: 'name', type: 'text', relate: null, hide: false, id: 'f00000000000000000000001' },
    { code: 'city', type: 'text', relate: null, hide: false, id: 'f00000000000000000000002' },
    { code: 'secret', type: 'number', relate: null, hide: true, id: 'f00000000000000000000003' },
    {
      code: 'boss',
      type: 'relate',
      relate: 'e00000000000000000000001',
      hide: false,
      id: 'f00000000000000000000004',
    },
  ],
};
const orders: CatalogEntity = {
  id: 'e00000000000000000000002',
  code: 'orders',
  fields: [
    { code: 'amount', type: 'number', relate: null, hide: false, id: 'f00000000000000000000005' },
    { code: 'at', type: 'date', relate: null, hide: false, id: 'f00000000000000000000006' },
    { code: 'customer', type: 'relate', relate: customers.id, hide: false, id: 'f00000000000000000000007' },
  ],
};
const catalog: Catalog = (ref) => [customers, orders].find((e) => e.id === ref || e.code === ref);

const doc = (over: Record<string, unknown> = {}, display: unknown[] = []) => ({
  _dataset: {
    base: 'orders',
    joins: [{ as: 'c', from: 't', field: 'customer' }],
    columns: [
      { key: 'month', expr: { fn: 'month', args: [{ ref: 't.at' }] } },
      { key: 'city', expr: { ref: 'c.city' } },
      { key: 'amount', expr: { ref: 't.amount' } },
      { key: 'secret', expr: { ref: 'c.secret' } },
    ],
    where: [{ field: 'city', type: 'text', opt: 'eq', value: { $param: 'city' } }],
    group: ['month'],
    aggregates: [
      { key: 'total', fn: 'sum', of: 'amount' },
      { key: 'n', fn: 'count' },
      { key: 'top', fn: 'max', of: 'secret' },
    ],
    sort: [{ key: 'month', order: 'asc' }],
    params: [{ name: 'city', type: 'text' }],
    ...over,
  },
  _release: { _display: { _entity: display } },
});

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof QueryError) return e.def.code;
    throw e;
  }
  return 0;
};
const plan = (d: unknown) => planDataset(parseDatasetDocument(d), catalog);

describe('dataset documents', () => {
  it('the JSON Schema accepts what the reader accepts', () => {
    const validate = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(schema);
    const d = doc({}, [{ key: 'month', title: 'Month' }]);
    expect(validate(d), JSON.stringify(validate.errors)).toBe(true);
    expect(parseDatasetDocument(d)._release._display._entity).toEqual([{ key: 'month', title: 'Month' }]);
    expect(validate({ _dataset: { base: 'x', columns: [{ key: '__x', expr: { ref: 't.a' } }] } })).toBe(
      false,
    );
  });

  it('answers coded errors: unknown field, cycle, bad shape, limits', () => {
    expect(code(() => plan(doc()))).toBe(0);
    expect(code(() => plan(doc({ columns: [{ key: 'x', expr: { ref: 'c.nope' } }] })))).toBe(1922);
    expect(code(() => plan(doc({ base: 'nowhere' })))).toBe(1922);
    expect(code(() => plan(doc({ group: ['ghost'] })))).toBe(1922);
    expect(
      code(() =>
        plan(
          doc({
            joins: [
              { as: 'a', from: 'b', field: 'boss' },
              { as: 'b', from: 'a', field: 'boss' },
            ],
          }),
        ),
      ),
    ).toBe(1923);
    expect(code(() => plan(doc({ joins: [{ as: 'c', from: 'c', field: 'customer' }] })))).toBe(1923);
    expect(code(() => plan(doc({ joins: [{ as: 'c', from: 't', field: 'amount' }] })))).toBe(1921);
    expect(
      code(() =>
        plan(doc({ columns: [{ key: 'x', expr: { fn: 'add', args: [{ ref: 'c.city' }, { value: 1 }] } }] })),
      ),
    ).toBe(1921);
    expect(code(() => plan(doc({ columns: [{ key: 'x', expr: { fn: 'eval', args: [] } }] })))).toBe(1921);
    expect(
      code(() =>
        plan(doc({ where: [{ field: 'city', type: 'text', opt: 'eq', value: { $param: 'ghost' } }] })),
      ),
    ).toBe(1922);
    let deep: unknown = { ref: 't.amount' };
    for (let i = 0; i < 20; i++) deep = { fn: 'neg', args: [deep] };
    expect(code(() => plan(doc({ columns: [{ key: 'x', expr: deep }] })))).toBe(1927);
    expect(code(() => plan(doc({ columns: [{ key: '__proto__', expr: { ref: 't.amount' } }] })))).toBe(1921);
    expect(code(() => plan(doc({}, [{ key: 'nope' }])))).toBe(1922);
  });

  it('refuses hostile parameter values and unknown parameters', () => {
    const p = plan(doc());
    const show = (params: unknown) => () => planShow(p, { params }, { now: 0 }, { showHidden: false });
    expect(code(show({ city: 'north' }))).toBe(0);
    expect(code(show({ city: { $ne: 1 } }))).toBe(1924);
    expect(code(show({ city: ['a', 'b'] }))).toBe(1924);
    expect(code(show({ city: 'a\u0000b' }))).toBe(1924);
    expect(code(show({ city: '\ud800' }))).toBe(1924);
    expect(code(show({ city: 'x'.repeat(1001) }))).toBe(1924);
    expect(code(show({ other: 1 }))).toBe(1924);
    expect(code(show('city=north'))).toBe(1924);
    const n = plan(doc({ params: [{ name: 'city', type: 'number' }] }));
    expect(code(() => planShow(n, { params: { city: 'NaN' } }, { now: 0 }, { showHidden: false }))).toBe(
      1924,
    );
  });

  it('evaluates: join, filter by parameter, group by month, sum and count; hidden columns left out', () => {
    const p = plan(doc());
    const at = (m: number) => Date.UTC(2024, m - 1, 10);
    const tables = {
      [customers.id]: [
        { _id: 'c1', name: 'A', city: 'north', secret: 5 },
        { _id: 'c2', name: 'B', city: 'south', secret: 9 },
      ],
      [orders.id]: [
        { _id: 'o1', amount: 10, at: at(1), customer: 'c1' },
        { _id: 'o2', amount: 5.555, at: at(1), customer: 'c1' },
        { _id: 'o3', amount: 7, at: at(2), customer: 'c1' },
        { _id: 'o4', amount: 100, at: at(2), customer: 'c2' },
      ],
    };
    const show = planShow(p, { params: { city: 'north' }, count: true }, { now: 0 }, { showHidden: false });
    expect(show.output.map((o) => o.key)).toEqual(['month', 'total', 'n']);
    expect(evaluateDataset(p, tables, show)).toEqual({
      rows: [
        { month: '2024-01', total: 15.56, n: 2 },
        { month: '2024-02', total: 7, n: 1 },
      ],
      count: 2,
    });
    const all = planShow(p, { sort: [{ field: 'total', order: 'desc' }] }, { now: 0 }, { showHidden: true });
    expect(evaluateDataset(p, tables, all).rows.map((r) => r.top)).toEqual([9, 5]);
  });
});
