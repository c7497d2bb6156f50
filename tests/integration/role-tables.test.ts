/**
 * A role's advanced settings of a table (/system/auth popups) acted on by the server: the default
 * filter applies to the member's list and table-widget reads and to their writes by id; the allowed
 * programs are the only ones the member's menu entry offers, `init` lists, and prepare/exec accept on
 * that table. Builders' own index on chosen fields (/system/data/{entity}) is a real index.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../src/server/errors.ts';
import { createFlow, releaseFlow } from '../../src/server/program/service.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('role table settings on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let clerk: string;
  let project: string;
  let roleId: string;
  let item: string;
  let entry: string;
  let progA: string;
  let progB: string;
  let progFree: string;
  const rolesUrl = () => `/api/admin/auth/${project}/main/role`;
  const rows = (body: unknown = {}) =>
    call<{ data: { _id: string; name: string; kind: string }[]; count?: number }>(
      t.app,
      'POST',
      `/api/app/simple/${project}/item/query`,
      { token: clerk, body },
    );

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'rtowner1',
      pwd: 'abc12345',
      phone: '13600000071',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'RT' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    item = (
      await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
        token: owner,
        body: { name: 'Item', code: 'item' },
      })
    ).data._id;
    for (const [name, field, type] of [
      ['Name', 'name', 'string'],
      ['Kind', 'kind', 'string'],
      ['Qty', 'qty', 'number'],
    ] as const)
      expect(
        (await call(t.app, 'POST', `${P}/item/field/create`, { token: owner, body: { name, type, field } }))
          .error,
      ).toBe(0);
    for (let i = 1; i <= 6; i++)
      await call(t.app, 'POST', `/api/admin/data/${project}/item/save`, {
        token: owner,
        body: { name: `n${i}`, kind: i % 2 ? 'odd' : 'even', qty: i },
      });
    const { db } = t.app.database;
    const prog = async (name: string, entity: string | null) =>
      (
        await releaseFlow(
          db,
          await createFlow(db, project, { name, _option: entity ? { _entity: entity } : {} }),
          null,
        )
      ).id;
    progA = await prog('Approve', item);
    progB = await prog('Archive', 'item');
    progFree = await prog('Hello', null);
    entry = (
      await call<{ _id: string }>(t.app, 'POST', `/api/admin/route/${project}/create`, {
        token: owner,
        body: { type: 'table', name: 'Items', value: item },
      })
    ).data._id;
    expect(
      (
        await call(t.app, 'POST', `/api/admin/route/${project}/${entry}/bind`, {
          token: owner,
          body: { programs: [progA, progB, progFree] },
        })
      ).error,
    ).toBe(0);
    roleId = (
      await call<{ _id: string }>(t.app, 'POST', `${rolesUrl()}/create`, {
        token: owner,
        body: { name: 'Clerk' },
      })
    ).data._id;
    const bound = await call(t.app, 'POST', `${rolesUrl()}/${roleId}/bind`, {
      token: owner,
      body: { entity: [item], route: [entry], program: [progA, progB, progFree] },
    });
    expect(bound.error, bound.raw).toBe(0);
    const u = await call(t.app, 'POST', `/api/admin/user/${project}/create`, {
      token: owner,
      body: { role: roleId, account: 'rtclerk01', pwd: 'abc12345', name: 'Clerk' },
    });
    expect(u.error, u.raw).toBe(0);
    clerk = (
      await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
        body: { user: 'rtclerk01', pwd: 'abc12345' },
      })
    ).data.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads and writes a role table setting; only builders, only ids of this project', async () => {
    const url = `${rolesUrl()}/${roleId}/table/${item}`;
    const none = await call<{ filter: unknown; programs: unknown }>(t.app, 'GET', url, { token: owner });
    expect(none.error, none.raw).toBe(0);
    expect(none.data).toMatchObject({ filter: null, programs: null, entity: item });
    const set = await call(t.app, 'POST', `${url}/programs`, { token: owner, body: { programs: [progA] } });
    expect(set.error, set.raw).toBe(0);
    const f = await call(t.app, 'POST', `/api/admin/view/${project}/item/role-filter`, {
      token: owner,
      body: {
        role: roleId,
        filter: { conditions: [{ field: 'kind', opt: 'eq', value: 'odd' }], match: 'and' },
      },
    });
    expect(f.error, f.raw).toBe(0);
    const both = await call<{ filter: { conditions: unknown[] }; programs: string[] }>(t.app, 'GET', url, {
      token: owner,
    });
    expect(both.data.programs).toEqual([progA]);
    expect(both.data.filter.conditions).toHaveLength(1);
    // A member may not read or change it.
    expect((await call(t.app, 'GET', url, { token: clerk })).error).toBe(E.FORBIDDEN.code);
    expect(
      (await call(t.app, 'POST', `${url}/programs`, { token: clerk, body: { programs: null } })).error,
    ).toBe(E.FORBIDDEN.code);
    // Ids that are not programs of this project, junk, unknown role and table: coded, nothing changed.
    for (const programs of [['0123456789abcdef01234567'], [item]]) {
      const r = await call(t.app, 'POST', `${url}/programs`, { token: owner, body: { programs } });
      expect(r.error, JSON.stringify(programs)).toBe(E.ROLE_PROGRAMS_INVALID.code);
    }
    expect(
      (await call(t.app, 'GET', `${rolesUrl()}/0123456789abcdef01234567/table/${item}`, { token: owner }))
        .error,
    ).toBe(E.ROLE_NOT_FOUND.code);
    expect((await call(t.app, 'GET', `${rolesUrl()}/${roleId}/table/nosuch`, { token: owner })).error).toBe(
      E.ENTITY_NOT_FOUND.code,
    );
    // Through the generic share call a malformed setting is refused too.
    const raw = await call(t.app, 'POST', `/api/app/share/${project}/config/project/role.${roleId}.${item}`, {
      token: owner,
      body: { value: { programs: 'all' } },
    });
    expect(raw.error).toBe(E.ROLE_PROGRAMS_INVALID.code);
    expect((await call<{ programs: string[] }>(t.app, 'GET', url, { token: owner })).data.programs).toEqual([
      progA,
    ]);
  });

  it("filters the member's reads by the role filter, whatever the request says", async () => {
    const r = await rows({
      query: { $or: [{ field: 'kind', type: 'text', opt: 'eq', value: 'even' }] },
      count: true,
    });
    expect(r.error, r.raw).toBe(0);
    expect(r.data.data.map((x) => x.kind)).toEqual([]);
    const all = await rows({ count: true });
    expect(all.data.count).toBe(3);
    expect(new Set(all.data.data.map((x) => x.kind))).toEqual(new Set(['odd']));
    // The builder sees every row.
    const mine = await call<{ count: number }>(t.app, 'POST', `/api/admin/data/${project}/item/query`, {
      token: owner,
      body: { count: true },
    });
    expect(mine.data.count).toBe(6);
  });

  it("orders a member's list by the table's default sort when the request names none", async () => {
    const set = await call(t.app, 'POST', `/api/app/share/${project}/config/project/table.${item}`, {
      token: owner,
      body: { value: { sort: { field: 'qty', order: 'desc' } } },
    });
    expect(set.error, set.raw).toBe(0);
    const qtys = async (body: unknown) =>
      (
        await call<{ data: { qty: number }[] }>(t.app, 'POST', `/api/app/simple/${project}/item/query`, {
          token: clerk,
          body,
        })
      ).data.data.map((r) => r.qty);
    expect(await qtys({})).toEqual([5, 3, 1]);
    // The request's own order wins.
    expect(await qtys({ sort: [{ field: 'qty', order: 'asc' }] })).toEqual([1, 3, 5]);
    // A malformed setting is refused by the store, and the order stays.
    const bad = await call(t.app, 'POST', `/api/app/share/${project}/config/project/table.${item}`, {
      token: owner,
      body: { value: { sort: { field: 'qty', order: 'sideways' } } },
    });
    expect(bad.error).toBe(E.TABLE_CONFIG_INVALID.code);
    expect(await qtys({})).toEqual([5, 3, 1]);
    await call(t.app, 'GET', `/api/app/share/${project}/config/project/table.${item}/remove`, {
      token: owner,
    });
  });

  it('refuses writes by id to rows outside the role filter', async () => {
    const admin = await call<{ data: { _id: string; kind: string }[] }>(
      t.app,
      'POST',
      `/api/admin/data/${project}/item/query`,
      { token: owner, body: {} },
    );
    const even = admin.data.data.find((x) => x.kind === 'even')!._id;
    const odd = admin.data.data.find((x) => x.kind === 'odd')!._id;
    const S = `/api/app/simple/${project}/item`;
    const up = await call(t.app, 'POST', `${S}/${even}/update`, { token: clerk, body: { name: 'hacked' } });
    expect(up.error).toBe(E.ROLE_RECORD_OUTSIDE.code);
    const rm = await call(t.app, 'POST', `${S}/${even}/remove`, { token: clerk, body: {} });
    expect(rm.error).toBe(E.ROLE_RECORD_OUTSIDE.code);
    const list = await call(t.app, 'POST', `${S}/update`, {
      token: clerk,
      body: [
        { _id: odd, name: 'fine' },
        { _id: even, name: 'hacked' },
      ],
    });
    expect(list.error).toBe(E.ROLE_RECORD_OUTSIDE.code);
    const after = await call<{ data: { name: string }[] }>(
      t.app,
      'POST',
      `/api/admin/data/${project}/item/query`,
      {
        token: owner,
        body: {},
      },
    );
    expect(after.data.data.map((x) => x.name)).not.toContain('hacked');
    expect(after.data.data.map((x) => x.name)).not.toContain('fine');
    const ok = await call(t.app, 'POST', `${S}/${odd}/update`, { token: clerk, body: { name: 'n1b' } });
    expect(ok.error, ok.raw).toBe(0);
  });

  it('offers and runs only the allowed programs on that table', async () => {
    const menu = await call<{ _id: string; _program: string[] }[]>(
      t.app,
      'GET',
      `/api/app/rt/${project}/list`,
      {
        token: clerk,
      },
    );
    expect(menu.data.find((m) => m._id === entry)?._program).toEqual([progA]);
    // The builder's menu keeps every bound program.
    const full = await call<{ _id: string; _program: string[] }[]>(
      t.app,
      'GET',
      `/api/app/rt/${project}/list`,
      {
        token: owner,
      },
    );
    expect(full.data.find((m) => m._id === entry)?._program).toEqual([progA, progB, progFree]);
    const init = await call<{ _id: string }[]>(t.app, 'GET', `/api/common/program/${project}/init`, {
      token: clerk,
    });
    const ids = init.data.map((p) => p._id);
    expect(ids).toContain(progA);
    expect(ids).toContain(progFree);
    expect(ids).not.toContain(progB);
    const G = `/api/common/program/${project}`;
    // Archive works on the table (by its code): refused, however it is started.
    for (const key of [entry, 'page1']) {
      const r = await call(t.app, 'POST', `${G}/exec/${progB}/${key}`, { token: clerk, body: {} });
      expect(r.error, key).toBe(E.PROGRAM_NOT_ALLOWED_HERE.code);
      const p = await call(t.app, 'POST', `${G}/prepare/${progB}/${key}`, { token: clerk, body: {} });
      expect(p.error, key).toBe(E.PROGRAM_NOT_ALLOWED_HERE.code);
    }
    // A program of no table is refused from the list entry of a limited table, allowed elsewhere.
    expect(
      (await call(t.app, 'POST', `${G}/exec/${progFree}/${entry}`, { token: clerk, body: {} })).error,
    ).toBe(E.PROGRAM_NOT_ALLOWED_HERE.code);
    expect((await call(t.app, 'POST', `${G}/exec/${progFree}/page1`, { token: clerk, body: {} })).error).toBe(
      0,
    );
    const okRun = await call(t.app, 'POST', `${G}/exec/${progA}/${entry}`, { token: clerk, body: {} });
    expect(okRun.error, okRun.raw).toBe(0);
    // The builder is not limited.
    expect((await call(t.app, 'POST', `${G}/exec/${progB}/${entry}`, { token: owner, body: {} })).error).toBe(
      0,
    );
    // Cleared: every granted program again.
    await call(t.app, 'POST', `${rolesUrl()}/${roleId}/table/${item}/programs`, {
      token: owner,
      body: { programs: null },
    });
    const again = await call<{ _id: string; _program: string[] }[]>(
      t.app,
      'GET',
      `/api/app/rt/${project}/list`,
      {
        token: clerk,
      },
    );
    expect(again.data.find((m) => m._id === entry)?._program).toEqual([progA, progB, progFree]);
    expect((await call(t.app, 'POST', `${G}/exec/${progB}/${entry}`, { token: clerk, body: {} })).error).toBe(
      0,
    );
  });

  it("builds and drops a builder's index on chosen fields as a real index", async () => {
    const I = `/api/admin/data/${project}/item/indexes`;
    const made = await call<{ _id: string; kind: string; pinned: boolean }>(t.app, 'POST', `${I}/create`, {
      token: owner,
      body: { fields: [{ field: 'kind' }, { field: 'qty', order: 'desc' }] },
    });
    expect(made.error, made.raw).toBe(0);
    expect(made.data).toMatchObject({ kind: 'manual', pinned: true });
    const name = (
      await t.app.database.db
        .selectFrom('data_indexes')
        .select('name')
        .where('id', '=', made.data._id)
        .executeTakeFirstOrThrow()
    ).name;
    const exists = async () => {
      if (dialect === 'postgres') {
        const r = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = ${name}`.execute(t.app.database.db);
        return Number(r.rows[0]?.n) > 0;
      }
      const r = await sql<{
        n: number;
      }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name = ${name}`.execute(
        t.app.database.db,
      );
      return Number(r.rows[0]?.n) > 0;
    };
    expect(await exists()).toBe(true);
    expect(
      (
        await call(t.app, 'POST', `${I}/create`, {
          token: owner,
          body: { fields: [{ field: 'kind' }, { field: 'qty', order: 'desc' }] },
        })
      ).error,
    ).toBe(E.INDEX_EXISTS.code);
    for (const fields of [['nosuch'], ['kind', 'kind'], [], ['a', 'b', 'c', 'd']].map((l) =>
      l.map((field) => ({ field })),
    )) {
      const r = await call(t.app, 'POST', `${I}/create`, { token: owner, body: { fields } });
      expect(r.error, JSON.stringify(fields)).not.toBe(0);
    }
    expect(
      (await call(t.app, 'POST', `${I}/create`, { token: clerk, body: { fields: [{ field: 'name' }] } }))
        .error,
    ).toBe(E.FORBIDDEN.code);
    const listed = await call<{ indexes: { _id: string }[] }>(t.app, 'POST', I, { token: owner, body: {} });
    expect(listed.data.indexes.map((x) => x._id)).toContain(made.data._id);
    const rm = await call(t.app, 'POST', `${I}/${made.data._id}/remove`, { token: owner, body: {} });
    expect(rm.error, rm.raw).toBe(0);
    expect(await exists()).toBe(false);
  });
});
