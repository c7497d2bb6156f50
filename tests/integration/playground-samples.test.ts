/**
 * "New project from a sample" (issue 26 item 2): any signed-in user lists the samples and copies one
 * into a new project they own — its tables with seed rows, pages (published), programs and the apps
 * it uses, with every reference pointing at the new project's objects. Unknown samples and bad names
 * get coded errors and create nothing; the copy is never topped up at start; `/playground/<app>`
 * opened from the copy draws the copy's page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePlaygroundAtStart, PLAYGROUND } from '../../src/server/demo/playground.ts';
import { sampleFamily } from '../../src/server/demo/samples.ts';
import type { PageDocument } from '../../src/shared/page-document.ts';
import { loadPage, validatePage } from '../../widgets/index.ts';
import { seedMember, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Sample {
  app: string;
  title: { zh: string; en: string };
  pages: string[];
  mode: string;
}

describe.each(dialects)('new project from a sample on %s', (dialect) => {
  let t: TestApp;
  let user: { id: string; token: string };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    user = await seedUser(t.app);
  }, 60_000);
  afterAll(() => t?.close());

  const projectCount = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('projects')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('the shop pages bring the whole shop; the others come alone', () => {
    const shopPages = Object.keys(PLAYGROUND).filter((n) => PLAYGROUND[n]!.uses?.includes('shop'));
    expect(sampleFamily('mall-index')).toEqual(['shop', ...shopPages]);
    expect(sampleFamily('goods-detail')).toEqual(sampleFamily('mall-index'));
    expect(sampleFamily('kanban')).toEqual(['kanban']);
    expect(sampleFamily('region')).toEqual(['region']);
  });

  it('lists the samples with their titles and pages to anyone signed in, and no one else', async () => {
    const list = await call<Sample[]>(t.app, 'GET', '/api/common/playground/samples', { token: user.token });
    expect(list.error, list.raw).toBe(0);
    const names = list.data.map((s) => s.app);
    expect(names).toContain('mall-index');
    expect(names).toContain('kanban');
    expect(names).not.toContain('shop');
    const mall = list.data.find((s) => s.app === 'mall-index')!;
    expect(mall.mode).toBe('mobile');
    expect(mall.title.en).toBe('Phone shop');
    expect(mall.pages).toContain('商城首页 / Mall home');
    expect(mall.pages).toContain('商品详情 / Product');
    expect((await call(t.app, 'GET', '/api/common/playground/samples')).error).not.toBe(0);
  });

  it('refuses unknown samples, page-less apps, bad names and strangers, creating nothing', async () => {
    const before = await projectCount();
    const copy = (body: unknown, token: string | null = user.token) =>
      call(t.app, 'POST', '/api/common/playground/copy', { ...(token ? { token } : {}), body });
    expect((await copy({ app: 'nope', name: 'X' })).error).toBe(2200);
    expect((await copy({ app: 'shop', name: 'X' })).error).toBe(2200);
    expect((await copy({ app: 'constructor', name: 'X' })).error).toBe(2200);
    expect((await copy({ app: '../kanban', name: 'X' })).error).not.toBe(0);
    expect((await copy({ app: 'kanban', name: '   ' })).error).not.toBe(0);
    expect((await copy({ app: 'kanban', name: 'x'.repeat(129) })).error).not.toBe(0);
    expect((await copy({ app: 'kanban' })).error).not.toBe(0);
    expect((await copy({ app: 'kanban', name: 'X' }, null)).error).not.toBe(0);
    expect((await copy({ app: 'kanban', name: 'X' }, 'f'.repeat(64))).error).not.toBe(0);
    expect(await projectCount()).toBe(before);
  });

  it('copies the mall into a new project the caller owns, with its pages, rows and programs wired to it', async () => {
    const made = await call<{ project: { _id: string; _name: string; role: string }; page: string }>(
      t.app,
      'POST',
      '/api/common/playground/copy',
      { token: user.token, body: { app: 'mall-index', name: ' My shop ' } },
    );
    expect(made.error, made.raw).toBe(0);
    const p = made.data.project._id;
    expect(made.data.project).toMatchObject({ _name: 'My shop', role: 'owner' });
    const mine = await call<{ _id: string }[]>(t.app, 'GET', '/api/common/project/list', {
      token: user.token,
    });
    expect(mine.data.map((x) => x._id)).toContain(p);

    // The same pages as the sample, each valid and published.
    const pages = await call<{ _id: string; name: string }[]>(t.app, 'GET', `/api/admin/page/${p}/`, {
      token: user.token,
    });
    expect(pages.error, pages.raw).toBe(0);
    const samples = await call<Sample[]>(t.app, 'GET', '/api/common/playground/samples', {
      token: user.token,
    });
    const mall = samples.data.find((s) => s.app === 'mall-index')!;
    expect(pages.data.map((x) => x.name).sort()).toEqual([...mall.pages].sort());
    expect(pages.data.map((x) => x._id)).toContain(made.data.page);
    const home = await call<{ document: PageDocument }>(
      t.app,
      'GET',
      `/api/admin/page/${p}/${made.data.page}`,
      {
        token: user.token,
      },
    );
    expect(validatePage(home.data.document).ok).toBe(true);
    expect(loadPage(home.data.document).issues).toEqual([]);
    const published = await call(t.app, 'GET', `/api/app/page/${p}/${made.data.page}`, {
      token: user.token,
    });
    expect(published.error, published.raw).toBe(0);

    // Seed rows came along, and the copied program runs against the copy's tables.
    const goods = await call<{ data: { _id: string; title: string }[] }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/shop_goods/query`,
      { token: user.token, body: { page: { index: 1, size: 50 } } },
    );
    expect(goods.data.data.length).toBe(
      PLAYGROUND.shop!.entities!.find((e) => e.code === 'shop_goods')!.rows.length,
    );
    const add = await t.app.database.db
      .selectFrom('flows')
      .select('id')
      .where('project_id', '=', p)
      .where('name', 'like', '加入购物车%')
      .executeTakeFirstOrThrow();
    // The product page's buttons run the copy's programs, and open the copy's seed row first.
    const detail = pages.data.find((x) => x.name === '商品详情 / Product')!;
    const detailDoc = await call(t.app, 'GET', `/api/admin/page/${p}/${detail._id}`, { token: user.token });
    expect(JSON.stringify(detailDoc.data)).toContain(add.id);
    const opened = await call<{ project: string; page: string; params: { id: string } }>(
      t.app,
      'GET',
      `/api/common/playground/goods-detail?prefer=${p}`,
      { token: user.token },
    );
    expect(opened.data).toMatchObject({ project: p, page: detail._id });
    expect(goods.data.data.map((g) => g._id)).toContain(opened.data.params.id);
    const run = await call(t.app, 'POST', `/api/common/program/${p}/exec/${add.id}/${made.data.page}`, {
      token: user.token,
      body: { data: { goods: goods.data.data[0]!._id } },
    });
    expect(run.error, run.raw).toBe(0);
    const cart = await call<{ data: { goods: string; qty: number }[] }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/shop_cart/query`,
      { token: user.token, body: { page: { index: 1, size: 10 } } },
    );
    expect(cart.data.data.some((r) => r.goods === goods.data.data[0]!._id && r.qty >= 1)).toBe(true);

    // Every copied page validates and loads clean.
    for (const pg of pages.data) {
      const doc = await call<{ document: PageDocument }>(t.app, 'GET', `/api/admin/page/${p}/${pg._id}`, {
        token: user.token,
      });
      expect(validatePage(doc.data.document).ok, pg.name).toBe(true);
      expect(loadPage(doc.data.document).issues, pg.name).toEqual([]);
    }

    // The cart: a second add counts the line up with its subtotal; a line removed; checkout makes
    // one order per line (待付款, with its tracking) and empties the cart.
    const flow = async (like: string) =>
      (
        await t.app.database.db
          .selectFrom('flows')
          .select('id')
          .where('project_id', '=', p)
          .where('name', 'like', like)
          .executeTakeFirstOrThrow()
      ).id;
    const exec = (id: string, data: Record<string, unknown>) =>
      call(t.app, 'POST', `/api/common/program/${p}/exec/${id}/-`, { token: user.token, body: { data } });
    const [g0, g1] = [goods.data.data[0]!, goods.data.data[1]!];
    expect((await exec(add.id, { goods: g0._id })).error).toBe(0);
    expect((await exec(add.id, { goods: g1._id })).error).toBe(0);
    const lines = async () =>
      (
        await call<{ data: { _id: string; goods: string; qty: number; amount: number; count: string }[] }>(
          t.app,
          'POST',
          `/api/app/simple/${p}/shop_cart/query`,
          { token: user.token, body: { page: { index: 1, size: 10 } } },
        )
      ).data.data;
    const price = (id: string) =>
      (goods.data.data as unknown as { _id: string; price: number }[]).find((g) => g._id === id)!.price;
    const first = (await lines()).find((l) => l.goods === g0._id)!;
    expect(first).toMatchObject({ qty: 2, amount: 2 * price(g0._id), count: '× 2' });
    const removed = await exec(await flow('移出购物车%'), { line: first._id });
    expect(removed.error, removed.raw).toBe(0);
    expect((await lines()).map((l) => l.goods)).toEqual([g1._id]);
    expect(JSON.stringify((await exec(await flow('移出购物车%'), { line: first._id })).data)).toContain(
      'Not in the cart',
    );
    const checkout = await flow('结算%');
    const paid = await exec(checkout, {});
    expect(paid.error, paid.raw).toBe(0);
    expect(JSON.stringify(paid.data)).toContain('下单成功');
    expect(await lines()).toEqual([]);
    const orders = await call<{ data: { no: string; goods: string; status: string; amount: number }[] }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/shop_order/query`,
      {
        token: user.token,
        body: { page: { index: 1, size: 1 }, sort: [{ field: 'created', order: 'desc' }] },
      },
    );
    expect(orders.data.data[0]).toMatchObject({ goods: g1._id, status: '待付款', amount: price(g1._id) });
    expect(JSON.stringify((await exec(checkout, {})).data)).toContain('The cart is empty');

    // Profiles are per member: the member page's program makes each member's own row once, and the
    // page's `owner = $$USER` list shows each only theirs; one member's edit leaves the other's alone.
    const member = await seedUser(t.app);
    await seedMember(t.app, p, member.id, 'admin', null);
    const myProfile = await flow('我的资料%');
    const ownProfile = async (token: string) =>
      (
        await call<{ data: { _id: string; owner: string; nickname: string }[] }>(
          t.app,
          'POST',
          `/api/app/simple/${p}/shop_profile/query`,
          {
            token,
            body: {
              query: { field: 'owner', type: 'text', opt: 'eq', value: '$$USER' },
              page: { index: 1, size: 5 },
            },
          },
        )
      ).data.data;
    for (const who of [user, user, member]) {
      const r = await call(t.app, 'POST', `/api/common/program/${p}/exec/${myProfile}/-`, {
        token: who.token,
        body: { data: {} },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const a = await ownProfile(user.token);
    const b = await ownProfile(member.token);
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(a[0]!.owner).toBe(user.id);
    expect(b[0]!.owner).toBe(member.id);
    const edited = await call(t.app, 'POST', `/api/app/simple/${p}/shop_profile/${a[0]!._id}/update`, {
      token: user.token,
      body: { nickname: 'Only mine' },
    });
    expect(edited.error, edited.raw).toBe(0);
    expect((await ownProfile(user.token))[0]!.nickname).toBe('Only mine');
    expect((await ownProfile(member.token))[0]!.nickname).not.toBe('Only mine');

    // /playground/mall-index opened from the copy draws the copy's page.
    const home2 = await call<{ project: string; page: string }>(
      t.app,
      'GET',
      `/api/common/playground/mall-index?prefer=${p}`,
      { token: user.token },
    );
    expect(home2.data).toMatchObject({ project: p, page: made.data.page });

    // Start-up leaves the builder's project alone (no other playground app is added).
    const modules = async () =>
      (
        await t.app.database.db
          .selectFrom('data_modules')
          .select('name')
          .where('project_id', '=', p)
          .execute()
      ).length;
    const n = await modules();
    await ensurePlaygroundAtStart(t.app);
    expect(await modules()).toBe(n);

    // Another user cannot open or copy into it.
    const other = await seedUser(t.app);
    expect((await call(t.app, 'GET', `/api/admin/page/${p}/`, { token: other.token })).error).not.toBe(0);
    const far = await call(t.app, 'GET', `/api/common/playground/mall-index?prefer=${p}`, {
      token: other.token,
    });
    expect(far.error).toBe(2181);
  }, 120_000);

  it('kanban copied twice: two projects, and each opens its own board', async () => {
    const copy = async (name: string) =>
      (
        await call<{ project: { _id: string }; page: string }>(t.app, 'POST', '/api/common/playground/copy', {
          token: user.token,
          body: { app: 'kanban', name },
        })
      ).data;
    const a = await copy('Board A');
    const b = await copy('Board B');
    expect(a.project._id).not.toBe(b.project._id);
    expect(a.page).not.toBe(b.page);
    const open = async (prefer: string) =>
      (
        await call<{ project: string }>(t.app, 'GET', `/api/common/playground/kanban?prefer=${prefer}`, {
          token: user.token,
        })
      ).data.project;
    expect(await open(a.project._id)).toBe(a.project._id);
    expect(await open(b.project._id)).toBe(b.project._id);
  }, 60_000);
});
