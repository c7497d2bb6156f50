/**
 * QueryCompiler.shape: the key a filter's SQL text depends on and the values it binds, in order. A
 * caller keeps the text per key and sends only the values (db/compiled.ts), so for every kind of
 * predicate the values must be exactly the compiled parameters, and two filters of one key must
 * compile to one text.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { type ColumnMap, QueryCompiler } from '../../src/server/data/sql-query.ts';
import type { Cond } from '../../src/shared/query/index.ts';

const compilers = {
  sqlite: new Kysely<unknown>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }),
  postgres: new Kysely<unknown>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }),
};

const columns: ColumnMap = {
  name: { type: 'text', column: 'f_name' },
  n: { type: 'number', column: 'f_n' },
  d: { type: 'date', column: 'f_d' },
  at: { type: 'time', column: 'f_at' },
  ok: { type: 'boolean', column: 'f_ok' },
  owner: { type: 'relate', column: 'f_owner' },
  tags: { type: 'collection', column: 'l_tags' },
  kind: { type: 'option', column: 'f_kind' },
  labels: { type: 'options', column: 'f_labels' },
};

/** Each predicate kind and operator, in two versions with other values but the same shape. */
const cases: Array<[string, Cond, Cond]> = [
  ...(['contain', 'notcontain', 'eq', 'ne', 'start', 'end'] as const).map((op): [string, Cond, Cond] => [
    `text ${op}`,
    { kind: 'text', field: 'name', op, value: 'ab' },
    { kind: 'text', field: 'name', op, value: 'xyz' },
  ]),
  ...(['eq', 'ne', 'gt', 'lt', 'gte', 'lte'] as const).map((op): [string, Cond, Cond] => [
    `number ${op}`,
    { kind: 'number', field: 'n', op, value: 1 },
    { kind: 'number', field: 'n', op, value: 2 },
  ]),
  ...(['between', 'notbetween'] as const).map((op): [string, Cond, Cond] => [
    `number ${op}`,
    { kind: 'number', field: 'n', op, value: [1, 5] },
    { kind: 'number', field: 'n', op, value: [3, 9] },
  ]),
  [
    'date in, both ends',
    { kind: 'date', field: 'd', op: 'in', from: 1, to: 9 },
    { kind: 'date', field: 'd', op: 'in', from: 2, to: 3 },
  ],
  [
    'date out, from only',
    { kind: 'date', field: 'd', op: 'out', from: 1, to: null },
    { kind: 'date', field: 'd', op: 'out', from: 7, to: null },
  ],
  [
    'date in, to only',
    { kind: 'date', field: 'd', op: 'in', from: null, to: 4 },
    { kind: 'date', field: 'd', op: 'in', from: null, to: 8 },
  ],
  [
    'date in, open',
    { kind: 'date', field: 'd', op: 'in', from: null, to: null },
    { kind: 'date', field: 'd', op: 'in', from: null, to: null },
  ],
  [
    'time',
    { kind: 'time', field: 'at', op: 'eq', value: '10:00:00' },
    { kind: 'time', field: 'at', op: 'eq', value: '11:30:00' },
  ],
  [
    'boolean',
    { kind: 'boolean', field: 'ok', op: 'eq', value: true },
    { kind: 'boolean', field: 'ok', op: 'eq', value: false },
  ],
  [
    'relate',
    { kind: 'relate', field: 'owner', op: 'in', value: ['a', 'b'] },
    { kind: 'relate', field: 'owner', op: 'in', value: ['c', 'd'] },
  ],
  [
    'relate, empty list',
    { kind: 'relate', field: 'owner', op: 'in', value: [] },
    { kind: 'relate', field: 'owner', op: 'in', value: [] },
  ],
  [
    '_id in',
    { kind: '_id', field: '_id', op: 'in', value: ['a'] },
    { kind: '_id', field: '_id', op: 'in', value: ['b'] },
  ],
  [
    '_id notin',
    { kind: '_id', field: '_id', op: 'notin', value: ['a', 'b', 'c'] },
    { kind: '_id', field: '_id', op: 'notin', value: ['d', 'e', 'f'] },
  ],
  [
    'collection',
    { kind: 'collection', field: 'tags', op: 'in', value: ['a', 'b'] },
    { kind: 'collection', field: 'tags', op: 'in', value: ['x', 'y'] },
  ],
  [
    'option in',
    { kind: 'option', field: 'kind', op: 'in', value: ['a'] },
    { kind: 'option', field: 'kind', op: 'in', value: ['b'] },
  ],
  [
    'option notin',
    { kind: 'option', field: 'kind', op: 'notin', value: ['a', 'b'] },
    { kind: 'option', field: 'kind', op: 'notin', value: ['c', 'd'] },
  ],
  ...(['hasany', 'hasall', 'hasnone'] as const).map((op): [string, Cond, Cond] => [
    `options ${op}`,
    { kind: 'options', field: 'labels', op, value: ['a', 'b'] },
    { kind: 'options', field: 'labels', op, value: ['c', 'd'] },
  ]),
  ...(['isnull', 'notnull'] as const).flatMap((op) =>
    (['text', 'number', 'collection'] as const).map((type): [string, Cond, Cond] => {
      const field = type === 'text' ? 'name' : type === 'number' ? 'n' : 'tags';
      return [`null ${op} ${type}`, { kind: 'null', type, field, op }, { kind: 'null', type, field, op }];
    }),
  ),
  ['false', { kind: 'false' }, { kind: 'false' }],
  ['empty and', { kind: 'and', items: [] }, { kind: 'and', items: [] }],
  ['empty or', { kind: 'or', items: [] }, { kind: 'or', items: [] }],
  [
    'nested groups',
    {
      kind: 'and',
      items: [
        { kind: 'text', field: 'name', op: 'start', value: 'a' },
        {
          kind: 'or',
          items: [
            { kind: 'number', field: 'n', op: 'between', value: [1, 2] },
            { kind: 'date', field: 'd', op: 'in', from: 5, to: null },
            { kind: 'options', field: 'labels', op: 'hasall', value: ['p', 'q', 'r'] },
          ],
        },
        { kind: 'boolean', field: 'ok', op: 'eq', value: true },
      ],
    },
    {
      kind: 'and',
      items: [
        { kind: 'text', field: 'name', op: 'start', value: 'zz' },
        {
          kind: 'or',
          items: [
            { kind: 'number', field: 'n', op: 'between', value: [4, 8] },
            { kind: 'date', field: 'd', op: 'in', from: 6, to: null },
            { kind: 'options', field: 'labels', op: 'hasall', value: ['s', 't', 'u'] },
          ],
        },
        { kind: 'boolean', field: 'ok', op: 'eq', value: false },
      ],
    },
  ],
];

describe('QueryCompiler.shape', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    for (const rangeByIndex of [true, false]) {
      const compiler = new QueryCompiler(dialect, columns, 't', rangeByIndex);
      const compile = (c: Cond) => sql`${compiler.where(c)}`.compile(compilers[dialect]);
      it.each(cases)(`${dialect}${rangeByIndex ? '' : ' (no range index)'}: %s`, (_name, a, b) => {
        const [ca, cb] = [compile(a), compile(b)];
        const [sa, sb] = [compiler.shape(a), compiler.shape(b)];
        expect(sa.params).toEqual(ca.parameters);
        expect(sb.params).toEqual(cb.parameters);
        expect(sa.key).toBe(sb.key);
        expect(ca.sql).toBe(cb.sql);
      });
    }
  }

  it('no filter, and filters of another shape, have other keys', () => {
    const c = new QueryCompiler('sqlite', columns);
    const keys = [
      c.shape(null),
      c.shape({ kind: 'number', field: 'n', op: 'eq', value: 1 }),
      c.shape({ kind: 'number', field: 'n', op: 'ne', value: 1 }),
      c.shape({ kind: 'text', field: 'name', op: 'eq', value: '1' }),
      c.shape({ kind: 'relate', field: 'owner', op: 'in', value: ['a'] }),
      c.shape({ kind: 'relate', field: 'owner', op: 'in', value: ['a', 'b'] }),
      c.shape({ kind: 'date', field: 'd', op: 'in', from: 1, to: null }),
      c.shape({ kind: 'date', field: 'd', op: 'in', from: null, to: 1 }),
      c.shape({ kind: 'null', type: 'text', field: 'name', op: 'isnull' }),
      c.shape({ kind: 'and', items: [{ kind: 'false' }] }),
      c.shape({ kind: 'or', items: [{ kind: 'false' }] }),
      new QueryCompiler('postgres', columns).shape(null),
      new QueryCompiler('sqlite', columns, 'x').shape(null),
      new QueryCompiler('sqlite', columns, 't', false).shape(null),
    ].map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
