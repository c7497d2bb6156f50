/**
 * Filter fuzz over HTTP: random and hostile query bodies (quotes, `%`, `_`, unicode, huge numbers,
 * objects where strings are expected, deep trees) sent to every data call that takes a filter. None
 * may answer a 500, leak a database error text, or return a row or field the caller may not read;
 * filters on a field the caller cannot read are refused, not dropped.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { hostileRequestArb, validClauseArb } from '../unit/query/arbitraries.ts';

const dialects = await testDialects();
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

/** Text that would betray the database behind an answer. */
const LEAK =
  /sqlite|postgres|syntax error|near "|relation "|column "|violates|constraint|e_[0-9a-f]{24}|c_[0-9a-f]{24}|l_[0-9a-f]{24}|at \w+ \(/i;
const SQL_TEXT = /\bSELECT\b|\bFROM\b|\bWHERE\b/;

const hostileText = fc.constantFrom(
  "'",
  "''",
  '"',
  '%',
  '_',
  '%_%',
  '\\',
  "'; DROP TABLE data_entities; --",
  "' OR '1'='1",
  '😀',
  '𠮷',
  'é',
  'NULL',
  '\u0000',
  '\ud800',
  ' ',
  'x'.repeat(5000),
);
const hostileNumber = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MAX_VALUE,
  -0,
  1e-320,
  '1e999',
  '99999999999999999999999',
);
const hostileObject = fc.constantFrom(
  { $gt: 1 },
  { toString: 'x' },
  { __proto__: { a: 1 } },
  [[[]]],
  { field: 'qty' },
  true,
);
const hostileValue = fc.oneof(
  hostileText,
  hostileNumber,
  hostileObject,
  fc.string({ maxLength: 40 }),
  fc.double(),
);

/** A clause on any field, with any operator and a hostile value. */
const wildClause = fc.record({
  field: fc.constantFrom(
    'name',
    'qty',
    'at',
    'clock',
    'owner',
    'tags',
    '_id',
    'nope',
    '__proto__',
    'constructor',
    "name' --",
  ),
  type: fc.constantFrom('text', 'number', 'date', 'time', 'relate', 'collection', '_id', 'bogus'),
  opt: fc.constantFrom(
    'contain',
    'notcontain',
    'eq',
    'ne',
    'start',
    'end',
    'isnull',
    'notnull',
    'gt',
    'lt',
    'between',
    'notbetween',
    'today',
    'drop',
  ),
  value: hostileValue,
});
const wildRequest = fc.record(
  {
    query: fc.oneof(
      wildClause,
      fc.array(wildClause, { maxLength: 4 }),
      fc.record({ $or: fc.array(wildClause, { maxLength: 3 }) }),
    ),
    sort: fc.oneof(
      fc.array(
        fc.record({
          field: fc.oneof(fc.constantFrom('name', 'qty', 'tags'), hostileValue),
          order: hostileValue,
        }),
      ),
      hostileValue,
    ),
    page: fc.oneof(fc.record({ index: hostileValue, size: hostileValue }), hostileValue),
  },
  { requiredKeys: [] },
);
const anyRequest = fc.oneof(hostileRequestArb, wildRequest);

describe.each(dialects)('filter fuzz over HTTP on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let clerk: string;
  let project: string;
  const readable = new Set<string>();
  /** Answers with rows vs coded refusals, so the property is known to exercise both. */
  const tally = { rows: 0, refused: 0 };

  /** Check one answer: coded, no leak, only readable rows, no hidden field for the clerk. */
  function check(
    ans: { status: number; error: number; msg?: string; raw: string; data: unknown },
    asClerk: boolean,
    body: unknown,
  ) {
    const where = `${JSON.stringify(body).slice(0, 400)} → ${ans.raw.slice(0, 300)}`;
    expect(ans.status, where).toBeLessThan(500);
    expect(ans.error, where).not.toBe(1);
    if (ans.error !== 0) {
      tally.refused++;
      expect(ans.msg ?? '', where).not.toMatch(LEAK);
      expect(ans.msg ?? '', where).not.toMatch(SQL_TEXT);
      return;
    }
    const rows = (ans.data as { data: { _id: string }[] }).data;
    if (rows.length) tally.rows++;
    for (const r of rows) expect(readable.has(r._id), where).toBe(true);
    if (asClerk) expect(ans.raw, where).not.toContain('TOPSECRET');
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'fuzzowner',
      pwd: 'abc12345',
      phone: '13600000041',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'F' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    const ids: Record<string, string> = {};
    for (const [name, code] of [
      ['Target', 'target'],
      ['Fuzz', 'fuzz'],
      ['Other', 'other'],
    ] as const) {
      ids[code] = (
        await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
          token: owner,
          body: { name, code },
        })
      ).data._id;
    }
    await call(t.app, 'POST', `${P}/target/field/create`, {
      token: owner,
      body: { name: 'Name', type: 'string', field: 'name' },
    });
    await call(t.app, 'POST', `${P}/other/field/create`, {
      token: owner,
      body: { name: 'Name', type: 'string', field: 'name' },
    });
    for (const [name, type, field, extra] of [
      ['Name', 'string', 'name', {}],
      ['Qty', 'number', 'qty', {}],
      ['At', 'date', 'at', {}],
      ['Clock', 'time', 'clock', {}],
      ['Owner', 'relate', 'owner', { relate: 'target' }],
      ['Tags', 'collection', 'tags', { relate: 'target' }],
      ['Secret', 'string', 'secret', { hide: true }],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/fuzz/field/create`, {
        token: owner,
        body: { name, type, field, ...extra },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const D = `/api/admin/data/${project}`;
    const targets: string[] = [];
    for (const name of ['t1', "t'2", '%t3']) {
      targets.push(
        (await call<{ _id: string }>(t.app, 'POST', `${D}/target/save`, { token: owner, body: { name } }))
          .data._id,
      );
    }
    const names = ["O'Brien", '100%', 'a_b', '😀 smile', '中文', '', 'plain', '"quoted"', '\\slash'];
    for (let i = 0; i < 27; i++) {
      const r = await call<{ _id: string }>(t.app, 'POST', `${D}/fuzz/save`, {
        token: owner,
        body: {
          name: names[i % names.length],
          qty: i % 5 === 0 ? null : (i - 13) * 1.5,
          at: i % 4 === 0 ? null : Date.UTC(2024, 0, 1 + i),
          clock: i % 3 === 0 ? null : `0${i % 10}:30`,
          owner: i % 2 ? targets[i % 3] : null,
          tags: targets.slice(0, i % 4),
          secret: `TOPSECRET-${i}`,
        },
      });
      expect(r.error, r.raw).toBe(0);
      readable.add(r.data._id);
    }
    for (let i = 0; i < 5; i++)
      await call(t.app, 'POST', `${D}/other/save`, { token: owner, body: { name: `other ${i}` } });
    const A = `/api/admin/auth/${project}/main/role`;
    const role = await call<{ _id: string }>(t.app, 'POST', `${A}/create`, {
      token: owner,
      body: { name: 'Clerk' },
    });
    await call(t.app, 'POST', `${A}/${role.data._id}/bind`, {
      token: owner,
      body: { entity: [ids.fuzz, ids.target] },
    });
    const u = await call(t.app, 'POST', `/api/admin/user/${project}/create`, {
      token: owner,
      body: { role: role.data._id, account: 'fuzzclerk', pwd: 'abc12345', name: 'c' },
    });
    expect(u.error, u.raw).toBe(0);
    clerk = (
      await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
        body: { user: 'fuzzclerk', pwd: 'abc12345' },
      })
    ).data.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('hostile query bodies never give a 500, a database text, or an unreadable row', async () => {
    await fc.assert(
      fc.asyncProperty(anyRequest, async (body) => {
        const b = body as Record<string, unknown>;
        check(
          await call(t.app, 'POST', `/api/app/simple/${project}/fuzz/query`, { token: clerk, body: b }),
          true,
          b,
        );
        check(
          await call(t.app, 'POST', `/api/admin/data/${project}/fuzz/query`, { token: owner, body: b }),
          false,
          b,
        );
        const f = { key: 'name', value: typeof b.page === 'string' ? b.page : 'a', query: b.query };
        check(await call(t.app, 'POST', `/api/d/${project}/fuzz/filter`, { token: clerk, body: f }), true, f);
      }),
      { numRuns: RUNS },
    );
    expect(tally.rows).toBeGreaterThan(RUNS / 10);
    expect(tally.refused).toBeGreaterThan(RUNS / 10);
  });

  it('hostile values in pickers (filter key/value) are coded errors or readable rows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('name', 'qty', 'at', 'owner', 'secret', 'nope', '__proto__'),
        fc.oneof(hostileText, fc.string({ maxLength: 30 }), fc.integer()),
        async (key, value) => {
          const body = { key, value };
          const ans = await call(t.app, 'POST', `/api/d/${project}/fuzz/filter`, { token: clerk, body });
          check(ans, true, body);
          if (key === 'secret' && value !== '') expect(ans.error, ans.raw).not.toBe(0);
        },
      ),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('a filter or sort on a field the caller cannot read is refused, never dropped', async () => {
    const secretClause = fc.record({
      field: fc.constant('secret'),
      type: fc.constant('text'),
      opt: fc.constantFrom('contain', 'eq', 'ne', 'start', 'end', 'isnull', 'notnull', 'notcontain'),
      value: fc.oneof(fc.constantFrom('TOPSECRET-1', '%', 'TOP'), fc.string({ maxLength: 10 })),
    });
    const where = fc.oneof(
      secretClause.map((c) => [c]),
      fc.tuple(validClauseArb, secretClause).map(([a, c]) => [{ $or: [a, c] }]),
      fc.tuple(validClauseArb, secretClause).map(([a, c]) => ({ $and: [a, { $or: [c] }] })),
    );
    await fc.assert(
      fc.asyncProperty(where, async (query) => {
        const clerkAns = await call(t.app, 'POST', `/api/app/simple/${project}/fuzz/query`, {
          token: clerk,
          body: { query },
        });
        expect(clerkAns.error, clerkAns.raw).toBe(1450);
        const exp = await t.app.inject({
          method: 'POST',
          url: `/api/app/d/${project}/fuzz/export`,
          headers: { token: clerk, 'content-type': 'application/json' },
          payload: JSON.stringify({ mode: 'all', query }),
        });
        expect(JSON.parse(exp.body).error).toBe(1450);
        // The builder sees hidden fields: the same filter works for the owner.
        const ownerAns = await call(t.app, 'POST', `/api/app/simple/${project}/fuzz/query`, {
          token: owner,
          body: { query },
        });
        expect(ownerAns.error, ownerAns.raw).toBe(0);
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
    const sorted = await call(t.app, 'POST', `/api/app/simple/${project}/fuzz/query`, {
      token: clerk,
      body: { sort: [{ field: 'secret', order: 'asc' }] },
    });
    expect(sorted.error, sorted.raw).not.toBe(0);
  });
});
