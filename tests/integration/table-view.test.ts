/**
 * What an end user's table sends when they sort, search and filter (the bodies are built by the same
 * shared code the runtime uses: src/shared/query/conditions.ts, page-total.ts), through the end-user
 * data call with a member's grants: literal search, typed filters, and a count asked apart from the
 * page. Bad sorts and hostile searches get a coded error and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../src/server/errors.ts';
import { allOf, conditionsQuery, SEARCH_MAX, searchQuery } from '../../src/shared/query/conditions.ts';
import { countBody, totalAfterPage } from '../../src/shared/query/page-total.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

const FIELDS = [
  { key: 'name', type: 'string' },
  { key: 'note', type: 'string' },
  { key: 'qty', type: 'number' },
];
const NAMES = ['Apple pie', 'apple', '50% off', 'snake_case', "O'Brien", 'back\\slash', 'Plain'];

describe.each(dialects)('table sort, search and filter on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let clerk: string;
  let project: string;
  const url = () => `/api/app/simple/${project}/item/query`;
  const query = (body: unknown, token = clerk) =>
    call<{ data: { name: string }[]; count?: number }>(t.app, 'POST', url(), { token, body });
  /** Every row as the owner reads it: what must not change after a refused call. */
  const everything = async () =>
    (await query({ all: true, sort: [{ field: 'name', order: 'asc' }] }, owner)).data.data;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'tvowner1',
      pwd: 'abc12345',
      phone: '13600000071',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'TV' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    const entity = await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
      token: owner,
      body: { name: 'Item', code: 'item' },
    });
    for (const [name, type, field, extra] of [
      ['Name', 'string', 'name', {}],
      ['Note', 'string', 'note', {}],
      ['Qty', 'number', 'qty', {}],
      ['Tags', 'collection', 'tags', { relate: 'item' }],
      ['Secret', 'string', 'secret', { hide: true }],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/item/field/create`, {
        token: owner,
        body: { name, type, field, ...extra },
      });
      expect(r.error, r.raw).toBe(0);
    }
    for (const [i, name] of NAMES.entries()) {
      const r = await call(t.app, 'POST', `/api/admin/data/${project}/item/save`, {
        token: owner,
        body: { name, note: i === 6 ? 'has apple inside' : '', qty: i + 1, secret: `s${i}` },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const A = `/api/admin/auth/${project}/main/role`;
    const role = await call<{ _id: string }>(t.app, 'POST', `${A}/create`, {
      token: owner,
      body: { name: 'Clerk' },
    });
    await call(t.app, 'POST', `${A}/${role.data._id}/bind`, {
      token: owner,
      body: { entity: [entity.data._id] },
    });
    const u = await call(t.app, 'POST', `/api/admin/user/${project}/create`, {
      token: owner,
      body: { role: role.data._id, account: 'tvclerk01', pwd: 'abc12345', name: 'Clerk' },
    });
    expect(u.error, u.raw).toBe(0);
    clerk = (
      await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
        body: { user: 'tvclerk01', pwd: 'abc12345' },
      })
    ).data.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const found = async (text: string) =>
    (await query({ query: searchQuery(text, FIELDS), sort: [{ field: 'qty', order: 'asc' }] })).data.data.map(
      (r) => r.name,
    );

  it('searches the text fields, case-sensitive and literal (wildcards and quotes mean themselves)', async () => {
    // "apple" in a name or a note; "Apple pie" differs in case.
    expect(await found('apple')).toEqual(['apple', 'Plain']);
    expect(await found('%')).toEqual(['50% off']);
    expect(await found('_')).toEqual(['snake_case']);
    expect(await found("'")).toEqual(["O'Brien"]);
    expect(await found('\\')).toEqual(['back\\slash']);
    expect(await found("' OR 1=1 --")).toEqual([]);
    expect(await found('nothing like it')).toEqual([]);
  });

  it('sorts on the server both ways, and filters by typed conditions with the search', async () => {
    const page = { index: 1, size: 3 };
    const asc = await query({ page, sort: [{ field: 'qty', order: 'asc' }] });
    expect(asc.data.data.map((r) => r.name)).toEqual(NAMES.slice(0, 3));
    const desc = await query({ page: { index: 2, size: 3 }, sort: [{ field: 'qty', order: 'desc' }] });
    expect(desc.data.data.map((r) => r.name)).toEqual(['snake_case', '50% off', 'apple']);
    const filtered = allOf(
      searchQuery('a', FIELDS),
      conditionsQuery([{ id: 1, field: 'qty', opt: 'gte', value: 3 }], 'and', FIELDS),
    );
    const r = await query({ query: filtered, sort: [{ field: 'qty', order: 'asc' }] });
    expect(r.data.data.map((x) => x.name)).toEqual(['snake_case', 'back\\slash', 'Plain']);
  });

  it('answers the page without a count, and the count in a call of its own', async () => {
    const q = searchQuery('a', FIELDS);
    const first = await query({ query: q, page: { index: 1, size: 2 } });
    expect(first.error, first.msg).toBe(0);
    expect(first.data.count).toBeUndefined();
    const after = totalAfterPage({ index: 1, size: 2 }, first.data.data.length, 'k', null);
    expect(after).toMatchObject({ total: { n: 2, exact: false }, ask: true });
    const counted = await query(countBody(q));
    expect(counted.data.count).toBe(4);
    expect(counted.data.data).toHaveLength(1);
  });

  it('refuses bad sorts and hostile searches with a coded error, and changes nothing', async () => {
    const before = await everything();
    const cases: [unknown, number][] = [
      [{ sort: [{ field: 'nope', order: 'asc' }] }, E.QUERY_INVALID.code],
      // A hidden field is unknown to a member: neither sortable nor searchable.
      [{ sort: [{ field: 'secret', order: 'asc' }] }, E.QUERY_INVALID.code],
      [{ query: { field: 'secret', type: 'text', opt: 'contain', value: 's' } }, E.QUERY_INVALID.code],
      [{ sort: [{ field: 'tags', order: 'desc' }] }, E.QUERY_INVALID.code],
      [{ sort: [{ field: 'name; DROP TABLE item', order: 'asc' }] }, E.QUERY_INVALID.code],
      [{ sort: [{ field: '__proto__', order: 'asc' }] }, E.QUERY_INVALID.code],
      [
        { sort: Array.from({ length: 11 }, () => ({ field: 'qty', order: 'asc' })) },
        E.QUERY_TOO_COMPLEX.code,
      ],
      [
        { query: { field: 'name', type: 'text', opt: 'contain', value: 'x'.repeat(1001) } },
        E.QUERY_TOO_COMPLEX.code,
      ],
      [
        { query: { field: 'name', type: 'text', opt: 'contain', value: { $ne: null } } },
        E.QUERY_INVALID.code,
      ],
      [{ query: { field: 'name', type: 'text', opt: 'contain', value: 'a\u0000b' } }, E.QUERY_INVALID.code],
      [{ query: { field: 'qty', type: 'text', opt: 'contain', value: '1' } }, E.QUERY_INVALID.code],
      [
        {
          query: {
            $or: Array.from({ length: 201 }, () => ({
              field: 'name',
              type: 'text',
              opt: 'contain',
              value: 'a',
            })),
          },
        },
        E.QUERY_TOO_COMPLEX.code,
      ],
    ];
    for (const [body, code] of cases) {
      const r = await query(body);
      expect(r.error, JSON.stringify(body).slice(0, 120)).toBe(code);
      expect(r.status).toBe(400);
    }
    expect(await everything()).toEqual(before);
  });

  it('the search box sends at most SEARCH_MAX characters, which the server takes', async () => {
    const q = searchQuery('y'.repeat(SEARCH_MAX * 10), FIELDS) as { $or: { value: string }[] };
    expect(q.$or[0]!.value).toHaveLength(SEARCH_MAX);
    expect((await query({ query: q })).error).toBe(0);
  });
});
