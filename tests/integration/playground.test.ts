/**
 * The playground (issue 26): on first run every app of PLAYGROUND is loaded into the demo project
 * through the builder's calls and recorded; a restart loads nothing twice; `/api/common/playground`
 * tells a member what `/playground/{app}` opens (and refuses the others with coded errors); every app
 * page validates and round-trips through the designer's document (load → save → same JSON); the
 * shop's programs create cart rows and orders; the dashboard's datasets answer per region.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRun } from '../../src/server/bootstrap.ts';
import { ensurePlayground, ensurePlaygroundAtStart, PLAYGROUND } from '../../src/server/demo/playground.ts';
import type { PageDocument } from '../../src/shared/page-document.ts';
import { docFromPage, pageFromDoc } from '../../src/shared/page-ydoc.ts';
import { loadPage, validatePage } from '../../widgets/index.ts';
import { seedProject, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('playground on %s', (dialect) => {
  let t: TestApp;
  let created: NonNullable<Awaited<ReturnType<typeof firstRun>>>;
  let token: string;
  let p: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { adminAccount: 'builder', adminPassword: 'builder123' });
    created = (await firstRun(t.app))!;
    p = created.projectId;
    const login = await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
      body: { user: 'builder', pwd: 'builder123' },
    });
    token = login.data.token;
  }, 180_000);
  afterAll(() => t?.close());

  it('loads every app once, and a restart loads nothing again', async () => {
    expect(Object.keys(created.demo.playground).sort()).toEqual(Object.keys(PLAYGROUND).sort());
    const count = async () =>
      Number(
        (
          await t.app.database.db
            .selectFrom('data_modules')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('project_id', '=', p)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await ensurePlaygroundAtStart(t.app);
    const again = await ensurePlayground(t.app, (await ownerOf(p))!, p);
    expect(Object.keys(again).sort()).toEqual(Object.keys(PLAYGROUND).sort());
    expect(await count()).toBe(before);
  });

  async function ownerOf(project: string) {
    return (
      await t.app.database.db
        .selectFrom('projects')
        .select('owner_id')
        .where('id', '=', project)
        .executeTakeFirst()
    )?.owner_id;
  }

  it('tells a member what /playground/{app} opens; unknown, foreign and page-less apps get coded errors', async () => {
    const list = await call<{ app: string; page: string; mode: string }[]>(
      t.app,
      'GET',
      '/api/common/playground/list',
      {
        token,
      },
    );
    expect(list.error, list.raw).toBe(0);
    const names = list.data.map((a) => a.app);
    for (const name of ['kanban', 'mall-index', 'goods-detail', 'order-list', 'platform-index'])
      expect(names).toContain(name);
    expect(names).not.toContain('shop');
    const mall = await call<{ project: string; page: string; mode: string; params: Record<string, unknown> }>(
      t.app,
      'GET',
      '/api/common/playground/mall-index',
      { token },
    );
    expect(mall.error, mall.raw).toBe(0);
    expect(mall.data).toMatchObject({
      project: p,
      page: created.demo.playground['mall-index']!.entry,
      mode: 'mobile',
    });
    const detail = await call<{ params: { id: string } }>(
      t.app,
      'GET',
      '/api/common/playground/goods-detail',
      { token },
    );
    expect(detail.data.params.id).toBe(created.demo.playground.shop!.rows.shop_goods![0]);
    expect((await call(t.app, 'GET', '/api/common/playground/nope', { token })).error).toBe(2180);
    expect((await call(t.app, 'GET', '/api/common/playground/shop', { token })).error).toBe(2182);
    expect((await call(t.app, 'GET', '/api/common/playground/..%2Fx', { token })).error).not.toBe(0);
    expect((await call(t.app, 'GET', '/api/common/playground/mall-index')).error).not.toBe(0);
    // Someone outside the demo project finds no playground there.
    const stranger = await seedUser(t.app);
    await seedProject(t.app, stranger.id);
    const far = await call(t.app, 'GET', '/api/common/playground/mall-index', { token: stranger.token });
    expect(far.error).toBe(2181);
    const none = await call<unknown[]>(t.app, 'GET', '/api/common/playground/list', {
      token: stranger.token,
    });
    expect(none.data).toEqual([]);
  });

  it('every app page validates, and round-trips through the designer document (load → save → same JSON)', async () => {
    for (const [name, app] of Object.entries(created.demo.playground)) {
      for (const [key, id] of Object.entries(app.pages)) {
        const got = await call<{ document: PageDocument }>(t.app, 'GET', `/api/admin/page/${p}/${id}`, {
          token,
        });
        expect(got.error, `${name}/${key}: ${got.raw}`).toBe(0);
        const v = validatePage(got.data.document);
        expect(v.ok, `${name}/${key}: ${JSON.stringify(v)}`).toBe(true);
        const loaded = loadPage(got.data.document);
        expect(loaded.issues, `${name}/${key}`).toEqual([]);
        const saved = pageFromDoc(docFromPage(loaded.page));
        const put = await call(t.app, 'POST', `/api/admin/page/${p}/${id}/update`, {
          token,
          body: { document: saved },
        });
        expect(put.error, `${name}/${key}: ${put.raw}`).toBe(0);
        const back = await call<{ document: PageDocument }>(t.app, 'GET', `/api/admin/page/${p}/${id}`, {
          token,
        });
        expect(back.data.document, `${name}/${key}`).toEqual(got.data.document);
      }
    }
  });

  it('the shop: add to cart twice gives one cart row of two; buy creates an order with the default address', async () => {
    const shop = created.demo.playground.shop!;
    const goods = shop.rows.shop_goods![1]!;
    const run = (program: string) =>
      call<{ display?: { message?: string }[] }>(
        t.app,
        'POST',
        `/api/common/program/${p}/exec/${program}/${created.demo.playground['goods-detail']!.entry}`,
        { token, body: { data: { goods } } },
      );
    for (let i = 0; i < 2; i++) {
      const r = await run(shop.programs.add_to_cart!);
      expect(r.error, r.raw).toBe(0);
    }
    const cart = await call<{ data: Record<string, unknown>[] }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/shop_cart/query`,
      {
        token,
        body: { page: { index: 1, size: 10 } },
      },
    );
    expect(cart.data.data).toHaveLength(1);
    expect(cart.data.data[0]).toMatchObject({ goods, qty: 2, title: 'Apple iPhone 16 128GB', price: 5999 });
    const bought = await run(shop.programs.buy!);
    expect(bought.error, bought.raw).toBe(0);
    expect(JSON.stringify(bought.data)).toContain('下单成功');
    const orders = await call<{ data: Record<string, unknown>[] }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/shop_order/query`,
      { token, body: { page: { index: 1, size: 1 }, sort: [{ field: 'created', order: 'desc' }] } },
    );
    expect(orders.data.data[0]).toMatchObject({ goods, status: '待付款', amount: 5999, qty: 1 });
    expect(String(orders.data.data[0]!.address)).toContain('广东省/深圳市/南山区');
    const track = await call<{ data: Record<string, unknown>[] }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/shop_logistics/query`,
      {
        token,
        body: {
          query: { field: 'order_no', type: 'text', opt: 'eq', value: orders.data.data[0]!.no },
          page: { index: 1, size: 5 },
        },
      },
    );
    expect(track.data.data).toHaveLength(1);
    // A goods id that is not one: a message, nothing created.
    const missing = await call(t.app, 'POST', `/api/common/program/${p}/exec/${shop.programs.buy!}/-`, {
      token,
      body: { data: { goods: 'ffffffffffffffffffffffff' } },
    });
    expect(JSON.stringify(missing)).toContain('No such product');
  });

  it('the dashboard datasets answer for all regions and for one', async () => {
    const ds = created.demo.playground['platform-index']!.datasets;
    const show = (flow: string, params: Record<string, unknown>) =>
      call<{ rows: { region?: string; total: number; month?: string }[] }>(
        t.app,
        'POST',
        `/api/app/ds/${p}/${flow}/show`,
        {
          token,
          body: { params, page: { index: 1, size: 100 } },
        },
      );
    const all = await show(ds.by_region!, {});
    expect(all.error, all.raw).toBe(0);
    expect(all.data.rows.map((r) => r.region).sort()).toEqual(['华东', '华北', '华南', '西南'].sort());
    const months = await show(ds.by_month!, {});
    const east = await show(ds.by_month!, { region: '华东' });
    expect(months.data.rows).toHaveLength(6);
    expect(east.data.rows).toHaveLength(6);
    const sum = (rows: { total: number }[]) => rows.reduce((s, r) => s + r.total, 0);
    expect(sum(east.data.rows)).toBeLessThan(sum(months.data.rows));
    expect(sum(east.data.rows)).toBe(all.data.rows.find((r) => r.region === '华东')!.total);
  });
});
