/**
 * The demo project's content on first run: a small working app built through the same API calls a
 * builder makes (so everything is validated and real): a module, a customers table with sample
 * rows, an orders table related to it, a detail/form page, a published "客户一览 / Customers" page
 * (title, a count, a table, a chart, a button opening the detail page in a modal) and a menu entry;
 * then the playground apps (`playground/<app>/app.json`, e.g. the real-time kanban board).
 */
import type { FastifyInstance } from 'fastify';
import { createSession, revokeSession } from '../account/service.ts';
import { sha256hex } from '../account/tokens.ts';
import { ensurePlayground, type LoadedApp } from './playground.ts';
import { markPaidProgram, orderTotalProgram, PAY_METHODS } from './programs.ts';

export interface DemoContent {
  module: string;
  customers: string;
  orders: string;
  listPage: string;
  detailPage: string;
  route: string;
  /** The orders list menu entry (binds the "mark order paid" program). */
  ordersRoute: string;
  /** The two demo programs (issue #20): mark an order paid, and the order-total trigger. */
  markPaid: string;
  orderTotal: string;
  /** The playground apps loaded beside the CRM module, by name. */
  playground: Record<string, LoadedApp>;
}

const LEVELS = ['VIP', '普通', '潜在'] as const;
const SURNAMES = '张王李赵刘陈杨黄周吴徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹';
const GIVEN = ['伟', '芳', '娜', '敏', '静', '磊', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀英'];

/** Thirty customers, the same on every first run (no randomness: the demo is reproducible). */
export function sampleCustomers(now = Date.UTC(2026, 0, 1)): Record<string, unknown>[] {
  return Array.from({ length: 30 }, (_, i) => ({
    name: `${SURNAMES[i % SURNAMES.length]}${GIVEN[(i * 7) % GIVEN.length]}`,
    phone: `138${String(10_000_000 + i * 271_828).slice(0, 8)}`,
    level: LEVELS[i % 3],
    since: now - i * 9 * 86_400_000,
    amount: Math.round(((i * 37) % 97) * 123.45 * 100) / 100,
  }));
}

const grid = (
  x: number,
  y: number,
  w: number,
  h: number,
  m?: { x: number; y: number; w: number; h: number },
) => ({
  pc: { x, y, w, h },
  mobile: m ?? { x: 0, y, w: 38, h },
});

const LAYOUT = {
  pc: { cols: 120, rowHeight: 10, width: 1200 },
  mobile: { cols: 38, rowHeight: 10, width: 375 },
};

export function detailDocument(): Record<string, unknown> {
  return {
    id: 'detail',
    title: '客户详情',
    version: 1,
    layout: LAYOUT,
    widgets: [
      {
        id: 'title',
        kind: 'text',
        version: 1,
        props: { text: '客户资料 / Customer', fontSize: 18, bold: true },
        layout: grid(0, 0, 120, 4, { x: 0, y: 0, w: 38, h: 4 }),
      },
      {
        id: 'form',
        kind: 'form',
        version: 1,
        props: {
          entity: 'customer',
          fields: [
            { field: 'name', label: '姓名 Name', required: true },
            { field: 'phone', label: '电话 Phone' },
            { field: 'level', label: '等级 Level' },
            { field: 'amount', label: '金额 Amount' },
          ],
          columns: 1,
          labelWidth: 110,
          submitText: '保存',
          showReset: true,
        },
        layout: grid(0, 5, 120, 28, { x: 0, y: 5, w: 38, h: 46 }),
        events: { onSubmit: [{ type: 'submitForm', form: 'form' }, { type: 'closeModal' }] },
      },
    ],
  };
}

export function listDocument(detailPage: string): Record<string, unknown> {
  return {
    id: 'customers',
    title: '客户一览',
    version: 1,
    layout: LAYOUT,
    widgets: [
      {
        id: 'title',
        kind: 'text',
        version: 1,
        props: { text: '客户一览 / Customers', fontSize: 22, bold: true },
        layout: grid(0, 0, 80, 5, { x: 0, y: 0, w: 38, h: 5 }),
      },
      {
        id: 'add',
        kind: 'button',
        version: 1,
        props: { text: '新增客户 / New customer', type: 'primary' },
        layout: grid(96, 0, 24, 4, { x: 0, y: 6, w: 38, h: 4 }),
        events: {
          onClick: [{ type: 'openModal', page: detailPage, title: '新增客户 / New customer', width: 600 }],
        },
      },
      {
        id: 'count_label',
        kind: 'text',
        version: 1,
        props: { text: '客户数 / Customers', color: '#666666' },
        layout: grid(0, 6, 30, 3, { x: 0, y: 11, w: 38, h: 3 }),
      },
      {
        id: 'count',
        kind: 'number',
        version: 1,
        props: { value: { $expr: 'widgets.table.total' }, decimals: 0, duration: 0, fontSize: 32 },
        layout: grid(0, 9, 30, 6, { x: 0, y: 14, w: 38, h: 6 }),
      },
      {
        id: 'chart',
        kind: 'graph',
        version: 1,
        props: {
          entity: 'customer',
          type: 'column',
          dimension: 'level',
          measure: 'amount',
          aggregate: 'sum',
        },
        layout: grid(32, 6, 88, 28, { x: 0, y: 21, w: 38, h: 26 }),
      },
      {
        id: 'table',
        kind: 'table',
        version: 1,
        props: { entity: 'customer', pageSize: 10, index: true, sort: true },
        layout: grid(0, 36, 120, 50, { x: 0, y: 48, w: 38, h: 60 }),
      },
    ],
  };
}

/** Seeds the demo into `project` as its owner. Runs once, on the first start of an empty database. */
export async function seedDemo(app: FastifyInstance, ownerId: string, project: string): Promise<DemoContent> {
  const token = await createSession(app.database.db, ownerId);
  const call = async <T = Record<string, unknown>>(url: string, body?: unknown): Promise<T> => {
    const res = await app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url,
      headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const answer = JSON.parse(res.body) as { error: number; msg?: string; data: T };
    if (answer.error !== 0) throw new Error(`demo: ${url} failed: ${answer.error} ${answer.msg ?? ''}`);
    return answer.data;
  };
  try {
    const P = `/api/admin/project/${project}`;
    const mod = await call<{ _id: string }>(`${P}/module/create`, { name: '客户管理 / CRM' });
    const customers = await call<{ _id: string }>(`${P}/entity/create`, {
      name: '客户 / Customers',
      code: 'customer',
      module: mod._id,
    });
    const fields: [string, string, string, Record<string, unknown>][] = [
      ['姓名 Name', 'string', 'name', {}],
      ['电话 Phone', 'string', 'phone', {}],
      ['等级 Level', 'string', 'level', { option: { info: { enable: true, list: [...LEVELS] } } }],
      ['客户自 Since', 'date', 'since', {}],
      ['金额 Amount', 'number', 'amount', { option: { decimals: 2 } }],
      ['订单总额 Order total', 'number', 'order_total', { option: { decimals: 2 } }],
    ];
    for (const [name, type, field, extra] of fields)
      await call(`${P}/customer/field/create`, { name, type, field, ...extra });
    const orders = await call<{ _id: string }>(`${P}/entity/create`, {
      name: '订单 / Orders',
      code: 'order',
      module: mod._id,
    });
    for (const [name, type, field, extra] of [
      ['单号 No.', 'string', 'no', {}],
      ['客户 Customer', 'relate', 'customer', { relate: 'customer' }],
      ['金额 Amount', 'number', 'amount', { option: { decimals: 2 } }],
      ['状态 Status', 'string', 'status', { option: { info: { enable: true, list: ['unpaid', 'paid'] } } }],
      ['付款方式 Payment', 'string', 'payment', { option: { info: { enable: true, list: PAY_METHODS } } }],
    ] as const)
      await call(`${P}/order/field/create`, { name, type, field, ...extra });
    // The programs come before the orders, so the trigger fills each customer's order total.
    const F = `/api/admin/flow/${project}`;
    const flows: string[] = [];
    for (const prog of [markPaidProgram(), orderTotalProgram()]) {
      const f = await call<{ _id: string }>(`${F}/create`, { ...prog, module: mod._id });
      await call(`${F}/${f._id}/release`, {});
      flows.push(f._id);
    }
    const D = `/api/admin/data/${project}`;
    const ids: string[] = [];
    for (const row of sampleCustomers())
      ids.push((await call<{ _id: string }>(`${D}/customer/save`, row))._id);
    for (let i = 0; i < 12; i++)
      await call(`${D}/order/save`, {
        no: `SO-${String(1001 + i)}`,
        customer: ids[(i * 5) % ids.length],
        amount: 100 + i * 55.5,
        status: i < 3 ? 'paid' : 'unpaid',
        ...(i < 3 ? { payment: PAY_METHODS[i % PAY_METHODS.length] } : {}),
      });

    const G = `/api/admin/page/${project}`;
    const detail = await call<{ _id: string }>(`${G}/create`, {
      name: '客户详情 / Customer',
      document: detailDocument(),
    });
    await call(`${G}/${detail._id}/publish`, { note: 'demo' });
    const list = await call<{ _id: string }>(`${G}/create`, {
      name: '客户一览 / Customers',
      document: listDocument(detail._id),
    });
    await call(`${G}/${list._id}/publish`, { note: 'demo' });
    const route = await call<{ _id: string }>(`/api/admin/route/${project}/create`, {
      type: 'page',
      name: '客户一览 / Customers',
      value: list._id,
    });
    const ordersRoute = await call<{ _id: string }>(`/api/admin/route/${project}/create`, {
      type: 'table',
      name: '订单 / Orders',
      value: 'order',
    });
    await call(`/api/admin/route/${project}/${ordersRoute._id}/bind`, { programs: [flows[0]] });
    const playground = await ensurePlayground(app, ownerId, project);
    return {
      playground,
      module: mod._id,
      customers: customers._id,
      orders: orders._id,
      listPage: list._id,
      detailPage: detail._id,
      route: route._id,
      ordersRoute: ordersRoute._id,
      markPaid: flows[0]!,
      orderTotal: flows[1]!,
    };
  } finally {
    await revokeSession(app.database.db, sha256hex(token));
  }
}
