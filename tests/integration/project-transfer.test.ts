/**
 * Project export and import: the demo project's package (tables, fields, records, pages, menus, roles,
 * programs) brought into another project with fresh ids, added beside existing content, replacing it;
 * hostile packages refused with a code and nothing changed; only builders may call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRun } from '../../src/server/bootstrap.ts';
import { digest, seedMember, seedProject, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();
type Pkg = Record<string, unknown> & {
  entities: { id: string; code: string }[];
  fields: { id: string; entity_id: string; code: string; type: string }[];
  pages: { id: string; published: unknown }[];
  routes: { id: string }[];
  roles: { id: string; name: string }[];
  records: Record<string, { rows: Record<string, unknown>[] }>;
};

describe.each(dialects)('project export and import on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let demo: string;
  let pkg: Pkg;

  const share = <T = unknown>(project: string, path: string, body: unknown, tok = token) =>
    call<T>(t.app, 'POST', `/api/app/share/${project}/${path}`, { token: tok, body });
  const query = (project: string, table: string) =>
    call<{ data: Record<string, unknown>[]; count: number }>(
      t.app,
      'POST',
      `/api/app/simple/${project}/${table}/query`,
      {
        token,
        body: { page: { index: 1, size: 100 }, count: true },
      },
    );
  const ownerId = async () =>
    (
      await t.app.database.db
        .selectFrom('users')
        .select('id')
        .where('account', '=', 'builder')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    t = await createTestApp(dialect, { adminAccount: 'builder', adminPassword: 'builder123' });
    demo = (await firstRun(t.app))!.projectId;
    token = (
      await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
        body: { user: 'builder', pwd: 'builder123' },
      })
    ).data.token;
    // A role granted the demo's first menu entry and table: its grants must follow the new ids.
    const routes = await t.app.database.db
      .selectFrom('routes')
      .select('id')
      .where('project_id', '=', demo)
      .execute();
    const tables = await t.app.database.db
      .selectFrom('data_entities')
      .select('id')
      .where('project_id', '=', demo)
      .execute();
    const made = await call<{ _id: string }>(t.app, 'POST', `/api/admin/auth/${demo}/main/role/create`, {
      token,
      body: { name: 'Sales' },
    });
    expect(made.error, made.raw).toBe(0);
    const bound = await call(t.app, 'POST', `/api/admin/auth/${demo}/main/role/${made.data._id}/bind`, {
      token,
      body: { route: [routes[0]!.id], entity: tables.map((x) => x.id) },
    });
    expect(bound.error, bound.raw).toBe(0);
  }, 60_000);
  afterAll(() => t?.close());

  it('exports the definition, and the records when asked', async () => {
    const bare = await share<Pkg>(demo, 'exportProject', {});
    expect(bare.error, bare.raw).toBe(0);
    expect(bare.data.records).toBeUndefined();
    const r = await share<Pkg>(demo, 'exportProject', { records: true });
    expect(r.error).toBe(0);
    pkg = r.data;
    expect(pkg.format).toBe(1);
    expect(pkg.entities.map((e) => e.code).sort()).toEqual(expect.arrayContaining(['customer', 'order']));
    const customer = pkg.entities.find((e) => e.code === 'customer')!;
    expect(pkg.records[customer.id]!.rows).toHaveLength(30);
    expect(pkg.pages.length).toBeGreaterThan(0);
    expect(pkg.roles.map((x) => x.name)).toContain('Sales');
  });

  it('imports into another project with fresh ids: rows, relations, pages, menus and grants follow', async () => {
    const target = (await seedProject(t.app, await ownerId(), { tier: 3 })).id;
    const r = await share<Record<string, number>>(target, 'importProject', { package: pkg });
    expect(r.error, r.raw).toBe(0);
    expect(r.data.records).toBeGreaterThanOrEqual(42);
    expect((await query(target, 'customer')).data.count).toBe(30);
    const orders = await query(target, 'order');
    expect(orders.data.count).toBe(12);

    const db = t.app.database.db;
    const oldIds = [...pkg.entities, ...pkg.fields, ...pkg.pages, ...pkg.routes, ...pkg.roles].map(
      (x) => x.id,
    );
    const newEntities = await db
      .selectFrom('data_entities')
      .select('id')
      .where('project_id', '=', target)
      .execute();
    expect(newEntities.map((e) => e.id).some((id) => oldIds.includes(id))).toBe(false);
    // No stored document, menu value or grant of the new project names an id of the old one.
    const [pages, routes, roles] = await Promise.all([
      db.selectFrom('pages').selectAll().where('project_id', '=', target).execute(),
      db.selectFrom('routes').selectAll().where('project_id', '=', target).execute(),
      db.selectFrom('roles').selectAll().where('project_id', '=', target).execute(),
    ]);
    const stored = JSON.stringify([pages, routes, roles]);
    for (const id of oldIds) expect(stored).not.toContain(id);
    expect(pages.filter((p) => p.published).length).toBe(pkg.pages.filter((p) => p.published).length);
    const sales = roles.find((x) => x.name === 'Sales')!;
    const grants = JSON.parse(sales.grants) as { entity: string[]; route: string[] };
    expect(grants.entity.every((id) => newEntities.some((e) => e.id === id))).toBe(true);
    expect(routes.some((x) => x.id === grants.route[0])).toBe(true);
    // Relation values point at the imported customers.
    const customers = new Set((await query(target, 'customer')).data.data.map((c) => c._id));
    const relate = pkg.fields.find((f) => f.type === 'relate');
    if (relate) {
      const withRef = orders.data.data.filter((o) => o[relate.code]);
      expect(withRef.length).toBeGreaterThan(0);
      for (const o of withRef) {
        const v = o[relate.code] as string | { _id: string };
        expect(customers.has(typeof v === 'string' ? v : v._id)).toBe(true);
      }
    }
    // The imported published page opens for its end users.
    const page = pages.find((p) => p.published)!;
    const init = await call(t.app, 'GET', `/api/common/app/${target}/${page.id}/init`, { token });
    expect(init.error, init.raw).toBe(0);
  });

  it('adding into the same project keeps both copies apart; replacing does not double them', async () => {
    const again = await share(demo, 'importProject', { package: pkg });
    expect(again.error, again.raw).toBe(0);
    const codes = (
      await t.app.database.db
        .selectFrom('data_entities')
        .select('code')
        .where('project_id', '=', demo)
        .execute()
    ).map((e) => e.code);
    expect(codes).toEqual(expect.arrayContaining(['customer', 'customer_2']));
    const roleNames = (
      await t.app.database.db.selectFrom('roles').select('name').where('project_id', '=', demo).execute()
    ).map((x) => x.name);
    expect(roleNames).toEqual(expect.arrayContaining(['Sales', 'Sales (2)']));

    const target = (await seedProject(t.app, await ownerId(), { tier: 3 })).id;
    expect((await share(target, 'importProject', { package: pkg })).error).toBe(0);
    const salesBefore = await t.app.database.db
      .selectFrom('roles')
      .select('id')
      .where('project_id', '=', target)
      .where('name', '=', 'Sales')
      .executeTakeFirstOrThrow();
    const member = await seedUser(t.app);
    await seedMember(t.app, target, member.id, 'common', salesBefore.id);
    const replaced = await share(target, 'importReplaceProject', { package: pkg });
    expect(replaced.error, replaced.raw).toBe(0);
    expect((await query(target, 'customer')).data.count).toBe(30);
    const tables = await t.app.database.db
      .selectFrom('data_entities')
      .select('code')
      .where('project_id', '=', target)
      .execute();
    expect(tables.length).toBe(pkg.entities.length);
    // The member keeps the role of the same name.
    const row = await t.app.database.db
      .selectFrom('project_members')
      .select('role_id')
      .where('project_id', '=', target)
      .where('user_id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(row.role_id).toBe(salesBefore.id);
  });

  /** A dataset flow of a package: `_dataset` as given (released too), no display. */
  const datasetFlow = (ds: Record<string, unknown>) => {
    const doc = { _dataset: ds, _release: { _display: { _entity: [] } } };
    return {
      id: '3'.repeat(24),
      module_id: null,
      type: 'dataset',
      name: 'D',
      sort: 0,
      draft: doc,
      released: doc,
    };
  };

  it('imports a dataset over the imported tables: its base follows the new table id and it shows', async () => {
    const target = (await seedProject(t.app, await ownerId(), { tier: 3 })).id;
    const customer = pkg.entities.find((e) => e.code === 'customer')!;
    const flow = datasetFlow({
      base: customer.id,
      columns: [
        { key: 'level', expr: { ref: 't.level' } },
        { key: 'amount', expr: { ref: 't.amount' } },
      ],
      group: ['level'],
      aggregates: [{ key: 'n', fn: 'count' }],
    });
    const r = await share(target, 'importProject', { package: { ...pkg, flows: [flow] } });
    expect(r.error, r.raw).toBe(0);
    const row = await t.app.database.db
      .selectFrom('flows')
      .select(['id', 'draft'])
      .where('project_id', '=', target)
      .where('type', '=', 'dataset')
      .executeTakeFirstOrThrow();
    const newCustomer = await t.app.database.db
      .selectFrom('data_entities')
      .select('id')
      .where('project_id', '=', target)
      .where('code', '=', 'customer')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.draft!)._dataset.base).toBe(newCustomer.id);
    const shown = await call<{ rows: { level: string; n: number }[] }>(
      t.app,
      'POST',
      `/api/app/ds/${target}/${row.id}/show`,
      { token, body: {} },
    );
    expect(shown.error, shown.raw).toBe(0);
    expect(shown.data.rows.map((x) => x.n).reduce((a, b) => a + b, 0)).toBe(30);
  });

  it('refuses hostile packages with a code and changes nothing', async () => {
    const target = (await seedProject(t.app, await ownerId(), { tier: 3 })).id;
    const before = await digest(t.app);
    const customer = pkg.entities.find((e) => e.code === 'customer')!;
    const numberField = pkg.fields.find((f) => f.entity_id === customer.id && f.type === 'number');
    const cases: [unknown, number][] = [
      [{ ...pkg, format: 99 }, 1211],
      [{ ...pkg, app: 'other' }, 1211],
      ['not an object', 1000],
      [{ ...pkg, entities: [...pkg.entities, { ...pkg.entities[0] }] }, 1210],
      [
        {
          ...pkg,
          fields: [
            ...pkg.fields,
            { ...pkg.fields[0], id: 'a'.repeat(24), relate_id: 'b'.repeat(24), type: 'relate' },
          ],
        },
        1210,
      ],
      [
        {
          ...pkg,
          fields: [...pkg.fields, { ...pkg.fields[0], id: 'c'.repeat(24), code: 'x; drop table users' }],
        },
        1210,
      ],
      [
        {
          ...pkg,
          fields: [...pkg.fields, { ...pkg.fields[0], id: 'd'.repeat(24), code: 'zz', type: 'script' }],
        },
        1210,
      ],
      [
        {
          ...pkg,
          pages: [{ id: 'e'.repeat(24), name: 'x', draft: { widgets: 'nope' }, published: null, display: 0 }],
        },
        1203,
      ],
      [
        {
          ...pkg,
          routes: [
            {
              id: 'f'.repeat(24),
              parent_id: '0'.repeat(24),
              sort: 0,
              type: 'page',
              name: 'x',
              value: null,
              programs: [],
            },
          ],
        },
        1210,
      ],
      [{ ...pkg, records: { ['1'.repeat(24)]: { rows: [] } } }, 1210],
      // Dataset flows are checked against the imported tables, as a save is.
      [
        {
          ...pkg,
          flows: [datasetFlow({ base: customer.id, columns: [{ key: 'n', expr: { ref: 't.nope' } }] })],
        },
        1210,
      ],
      [
        {
          ...pkg,
          flows: [
            datasetFlow({
              base: customer.id,
              joins: [
                { as: 'a', from: 'b', field: 'x' },
                { as: 'b', from: 'a', field: 'x' },
              ],
              columns: [{ key: 'n', expr: { ref: 't.name' } }],
            }),
          ],
        },
        1210,
      ],
      [
        {
          ...pkg,
          flows: [datasetFlow({ base: '9'.repeat(24), columns: [{ key: 'n', expr: { ref: 't.name' } }] })],
        },
        1210,
      ],
      [{ ...pkg, flows: [datasetFlow({ base: customer.id, columns: [], evil: 1 })] }, 1210],
    ];
    if (numberField)
      cases.push([
        {
          ...pkg,
          records: {
            [customer.id]: {
              rows: [{ _id: '2'.repeat(24), [numberField.id]: "1'; drop table users; --" }],
              links: {},
            },
          },
        },
        1210,
      ]);
    for (const [bad, code] of cases) {
      const r = await share(target, 'importProject', { package: bad });
      expect(r.error, `${code}: ${r.raw}`).toBe(code);
    }
    expect(await digest(t.app)).toBe(before);
    expect(
      (
        await t.app.database.db
          .selectFrom('data_entities')
          .select('id')
          .where('project_id', '=', target)
          .execute()
      ).length,
    ).toBe(0);
  });

  it('only the project builders may export or import', async () => {
    const stranger = await seedUser(t.app);
    const member = await seedUser(t.app);
    await seedMember(t.app, demo, member.id, 'common', null);
    const before = await digest(t.app);
    for (const tok of [stranger.token, member.token]) {
      expect((await share(demo, 'exportProject', {}, tok)).error).not.toBe(0);
      expect((await share(demo, 'importProject', { package: pkg }, tok)).error).not.toBe(0);
      expect((await share(demo, 'importReplaceProject', { package: pkg }, tok)).error).not.toBe(0);
    }
    const anon = await call(t.app, 'POST', `/api/app/share/${demo}/exportProject`, { body: {} });
    expect(anon.error).toBe(1100);
    expect(await digest(t.app)).toBe(before);
  });

  it('usage counts what the project holds', async () => {
    const u = await call<Record<string, number>>(t.app, 'GET', `/api/admin/project/${demo}/usage`, { token });
    expect(u.error, u.raw).toBe(0);
    expect(u.data.entities).toBeGreaterThanOrEqual(4);
    expect(u.data.records).toBeGreaterThanOrEqual(84);
    expect(u.data.members).toBeGreaterThanOrEqual(1);
  });
});
