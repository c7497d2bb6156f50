/** First run: the demo project holds a working app (tables with rows, published pages, a menu entry). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRun } from '../../src/server/bootstrap.ts';
import { validatePage } from '../../widgets/index.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('demo content on %s', (dialect) => {
  let t: TestApp;
  let created: Awaited<ReturnType<typeof firstRun>>;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { adminAccount: 'builder', adminPassword: 'builder123' });
    created = await firstRun(t.app);
    const login = await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
      body: { user: 'builder', pwd: 'builder123' },
    });
    token = login.data.token;
  }, 60_000);
  afterAll(() => t?.close());

  it('creates the demo once, and not again on a second start', async () => {
    expect(created?.demo.listPage).toMatch(/^[0-9a-f]{24}$/);
    expect(await firstRun(t.app)).toBeNull();
  });

  it('the customers table holds 30 sample rows, readable through the end-user data call', async () => {
    const p = created!.projectId;
    const r = await call<{ data: Record<string, unknown>[]; count: number }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/customer/query`,
      { token, body: { page: { index: 1, size: 50 }, count: true } },
    );
    expect(r.error, r.raw).toBe(0);
    expect(r.data.count).toBe(30);
    expect(r.data.data[0]).toHaveProperty('name');
    const orders = await call<{ data: Record<string, unknown>[] }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/order/query`,
      {
        token,
        body: { page: { index: 1, size: 50 } },
      },
    );
    expect(orders.data.data.length).toBe(12);
    // The relation points at a real customer and shows its name.
    expect(String(orders.data.data[0]!._customer ?? orders.data.data[0]!.customer)).not.toBe('');
    const meta = await call<{ field: { _key: string }[] }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/customer/meta`,
      {
        token,
        body: {},
      },
    );
    expect(meta.data.field.map((f) => f._key)).toEqual([
      'name',
      'phone',
      'level',
      'since',
      'amount',
      'order_total',
    ]);
  });

  it('the published pages validate, and the button opens the detail page in a modal', async () => {
    const p = created!.projectId;
    const list = await call<{
      document: { widgets: { kind: string; events?: Record<string, { type: string; page?: string }[]> }[] };
    }>(t.app, 'GET', `/api/app/page/${p}/${created!.demo.listPage}`, { token });
    expect(list.error, list.raw).toBe(0);
    expect(validatePage(list.data.document).ok).toBe(true);
    const kinds = list.data.document.widgets.map((w) => w.kind);
    expect(kinds).toEqual(expect.arrayContaining(['text', 'number', 'table', 'graph', 'button']));
    const button = list.data.document.widgets.find((w) => w.kind === 'button')!;
    expect(button.events?.onClick?.[0]).toMatchObject({ type: 'openModal', page: created!.demo.detailPage });
    const detail = await call<{ document: unknown }>(
      t.app,
      'GET',
      `/api/app/page/${p}/${created!.demo.detailPage}`,
      {
        token,
      },
    );
    expect(detail.error, detail.raw).toBe(0);
    expect(validatePage(detail.data.document).ok).toBe(true);
  });

  it('the menu has a page entry pointing at the customers page', async () => {
    const p = created!.projectId;
    const r = await call<Record<string, unknown>[]>(t.app, 'GET', `/api/app/rt/${p}/list`, { token });
    expect(r.error, r.raw).toBe(0);
    expect(JSON.stringify(r.data)).toContain(created!.demo.listPage);
  });

  it('holds the kanban playground: tasks in three columns with ranks, the board page and its menu entry', async () => {
    const p = created!.projectId;
    const app = created!.demo.playground.kanban!;
    const rows = await call<{ data: Record<string, unknown>[]; count: number }>(
      t.app,
      'POST',
      `/api/app/simple/${p}/task/query`,
      { token, body: { page: { index: 1, size: 50 }, count: true, sort: [{ field: 'rank', order: 'asc' }] } },
    );
    expect(rows.error, rows.raw).toBe(0);
    expect(rows.data.count).toBe(10);
    expect(new Set(rows.data.data.map((r) => r.status))).toEqual(new Set(['待办', '进行中', '已完成']));
    expect(rows.data.data.every((r) => typeof r.rank === 'number')).toBe(true);

    const board = await call<{
      document: {
        widgets: {
          kind: string;
          props: Record<string, unknown>;
          events?: Record<string, { page?: string }[]>;
        }[];
      };
    }>(t.app, 'GET', `/api/app/page/${p}/${app.pages.board}`, { token });
    expect(board.error, board.raw).toBe(0);
    expect(validatePage(board.data.document).ok).toBe(true);
    const kanban = board.data.document.widgets.find((w) => w.kind === 'kanban')!;
    expect(kanban.props).toMatchObject({
      entity: 'task',
      groupField: 'status',
      rankField: 'rank',
      realtime: true,
    });
    // '@page:form' was replaced by the form page's id.
    expect(kanban.events?.onCardClick?.[0]?.page).toBe(app.pages.form);
    const menu = await call<Record<string, unknown>[]>(t.app, 'GET', `/api/app/rt/${p}/list`, { token });
    expect(JSON.stringify(menu.data)).toContain(app.pages.board);
  });
});
