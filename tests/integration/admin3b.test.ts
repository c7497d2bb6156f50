/**
 * The administration area on both databases (#22, helper admin3b): the members list searched and
 * paged in SQL (a project of 5,000 members pages fast), and the spreadsheet import honouring option
 * sets (labels, translated labels → stored options; unknown labels → a row error) and auto-numbering
 * (numbers taken as rows are written; a failed import gives them back).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debugSecret } from '../../src/server/admin/debug-secret.ts';
import { newId } from '../../src/shared/id.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

/** An xlsx of one sheet: a header row, then the rows. */
async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('S');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

interface Page {
  list: { _id: string; account: string | null; name: string }[];
  size: number;
  total: number;
  quota: number | null;
}

describe.each(dialects)('administration (admin3b) on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let other: string;
  let project: string;
  const share = (path: string) => `/api/app/share/${project}/${path}`;
  const list = (body: unknown, token = owner) =>
    call<Page>(t.app, 'POST', `/api/admin/user/${project}/list`, { token, body });
  const importFile = async (file: Buffer, keepGood = false) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/app/d/${project}/item/import${keepGood ? '?keepGood=1' : ''}`,
      headers: { token: owner, 'content-type': 'application/octet-stream' },
      payload: file,
    });
    return JSON.parse(res.body) as {
      error: number;
      data: { inserted: number; failed: number; errors: { row: number; field: string; reason: string }[] };
    };
  };
  const rows = async () =>
    (
      await call<{ data: Record<string, unknown>[] }>(
        t.app,
        'POST',
        `/api/admin/data/${project}/item/query`,
        {
          token: owner,
          body: { all: true },
        },
      )
    ).data.data;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      admin: {
        // Option sets and table settings are written below: the server refuses them unless offered.
        features: ['user', 'auth', 'menu', 'data', 'share', 'i18n', 'selection'],
        debug: false,
        debugSecret: 'k3y',
        vendor: true,
      },
    });
    ({ token: owner } = await registerUser(t.app, {
      user: 'adm3bowner',
      pwd: 'abc12345',
      phone: '13600000191',
    }));
    ({ token: other } = await registerUser(t.app, {
      user: 'adm3bother',
      pwd: 'abc12345',
      phone: '13600000192',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'A3B' },
      })
    ).data._id;
    // 5,000 members, written straight into the tables (the calls would take minutes).
    const db = t.app.database.db;
    const now = Date.now();
    for (let chunk = 0; chunk < 5000; chunk += 500) {
      const users = Array.from({ length: 500 }, (_, i) => {
        const n = chunk + i;
        return {
          id: newId(now + n),
          account: `member${String(n).padStart(4, '0')}`,
          phone: `1390000${String(n).padStart(4, '0')}`,
          nickname: n % 100 === 7 ? `Zoë_%${n}` : `M ${n}`,
          pwd: 'x',
          status: 'active' as const,
          avatar: null,
          parent_id: null,
          created_at: now,
          updated_at: now,
        };
      });
      await db.insertInto('users').values(users).execute();
      await db
        .insertInto('project_members')
        .values(
          users.map((u, i) => ({
            project_id: project,
            user_id: u.id,
            role_type: 'common' as const,
            role_id: null,
            status: 'active' as const,
            created_at: now + 1000 + chunk + i,
          })),
        )
        .execute();
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('the members list is searched and paged by the server, with the total of matches', async () => {
    const first = await list({ page: 1, pageSize: 20 });
    expect(first.error, first.raw).toBe(0);
    expect(first.data.size).toBe(5001); // the owner too
    expect(first.data.total).toBe(5001);
    expect(first.data.list).toHaveLength(20);
    // Join order: the owner first, then member0000…
    expect(first.data.list[1]!.account).toBe('member0000');
    const last = await list({ page: 251, pageSize: 20 });
    expect(last.data.list.map((m) => m.account)).toEqual(['member4999']);
    expect((await list({ page: 252, pageSize: 20 })).data.list).toEqual([]);

    // Account, phone and nickname, case-insensitive; LIKE's wildcards are taken literally.
    const byAccount = await list({ text: 'MEMBER012', page: 1, pageSize: 5 });
    expect(byAccount.data.total).toBe(10);
    expect(byAccount.data.list.map((m) => m.account)).toEqual([
      'member0120',
      'member0121',
      'member0122',
      'member0123',
      'member0124',
    ]);
    expect(
      (await list({ text: '13900004321', page: 1, pageSize: 5 })).data.list.map((m) => m.account),
    ).toEqual(['member4321']);
    const percent = await list({ text: 'zoë_%', page: 1, pageSize: 100 });
    expect(percent.data.total).toBe(50);
    const names = (await list({ text: '_%4', page: 1, pageSize: 100 })).data.list.map((m) => m.name);
    expect(names).toHaveLength(11); // 407, 4007 … 4907
    expect(names.every((n) => n.includes('_%4'))).toBe(true);
    expect((await list({ text: '%', page: 1, pageSize: 10 })).data.total).toBe(50);
    expect((await list({ text: 'nobody-here', page: 1, pageSize: 10 })).data).toMatchObject({
      total: 0,
      list: [],
    });

    // Fast: a middle page and a search over 5,000 members (generous bounds for a loaded machine).
    let worst = 0;
    for (const body of [
      { page: 120, pageSize: 20 },
      { text: '4321', page: 1, pageSize: 20 },
    ]) {
      const started = performance.now();
      expect((await list(body)).error).toBe(0);
      worst = Math.max(worst, performance.now() - started);
    }
    console.log(`[admin3b ${dialect}] member page over 5,001 members: worst ${worst.toFixed(1)} ms`);
    expect(worst).toBeLessThan(1500);
  });

  it('bad paging input is refused with 1000 and other users get nothing', async () => {
    for (const body of [
      { page: 0 },
      { page: 1, pageSize: 201 },
      { page: 'x' },
      { text: 'x'.repeat(65) },
      { text: 5 },
      { page: 1.5 },
    ])
      expect((await list(body)).error, JSON.stringify(body)).toBe(1000);
    const refused = await list({ page: 1, pageSize: 20 }, other);
    expect(refused.error).not.toBe(0);
    expect(refused.data).toBeUndefined();
  });

  it('an import takes an option set’s options and their translated labels, and refuses unknown ones per row', async () => {
    expect(
      (
        await call(t.app, 'POST', `/api/admin/project/${project}/entity/create`, {
          token: owner,
          body: { name: 'Item', code: 'item' },
        })
      ).error,
    ).toBe(0);
    expect(
      (
        await call(t.app, 'POST', share('selection/project/sizes'), {
          token: owner,
          body: { value: { name: 'Sizes', list: ['小', '中', '大'] } },
        })
      ).error,
    ).toBe(0);
    const fields = [
      { name: '名称', type: 'string', field: 'title' },
      { name: '尺寸', type: 'option', field: 'size', option: { info: { selection: 'sizes' } } },
      { name: '颜色', type: 'option', field: 'colour', option: { info: { list: ['红', '蓝'] } } },
    ];
    const ids: Record<string, string> = {};
    for (const body of fields) {
      const r = await call<{ _id: string }>(
        t.app,
        'POST',
        `/api/admin/project/${project}/item/field/create`,
        {
          token: owner,
          body,
        },
      );
      expect(r.error, r.raw).toBe(0);
      ids[body.field] = r.data._id;
    }
    // English labels: the set's (shared by its fields) and the field's own list's.
    expect(
      (
        await call(t.app, 'POST', share('i18n/project/text.en'), {
          token: owner,
          body: {
            value: { 'set:sizes.中': 'Medium', 'set:sizes.大': 'Large', [`${ids.colour}.蓝`]: 'Blue' },
          },
        })
      ).error,
    ).toBe(0);

    const good = await importFile(
      await sheet([
        ['名称', '尺寸', '颜色'],
        ['a', '小', '红'],
        ['b', 'Medium', 'Blue'],
        ['c', ' Large ', null],
      ]),
    );
    expect(good.error, JSON.stringify(good)).toBe(0);
    expect(good.data.inserted).toBe(3);
    const stored = (await rows()).map((r) => [r.title, r.size, r.colour]);
    expect(stored).toEqual(
      expect.arrayContaining([
        ['a', '小', '红'],
        ['b', '中', '蓝'],
        ['c', '大', null],
      ]),
    );

    // Unknown labels: the row is named, nothing is written.
    const bad = await importFile(
      await sheet([
        ['名称', '尺寸', '颜色'],
        ['d', 'Huge', '红'],
        ['e', '中', 'Green'],
        ['f', '中', '红'],
      ]),
    );
    expect(bad.error).toBe(1463);
    expect(bad.data.failed).toBe(2);
    expect(bad.data.errors.map((e) => [e.row, e.field])).toEqual([
      [2, 'size'],
      [3, 'colour'],
    ]);
    expect(bad.data.errors[0]!.reason).toContain('Huge');
    expect(await rows()).toHaveLength(3);

    // A set changed since: its options as they are at import time.
    await call(t.app, 'POST', share('selection/project/sizes'), {
      token: owner,
      body: { value: { name: 'Sizes', list: ['中', '大'] } },
    });
    const after = await importFile(
      await sheet([
        ['名称', '尺寸'],
        ['g', '小'],
      ]),
    );
    expect(after.error).toBe(1463);
  });

  it('an import numbers auto-numbered fields consecutively and gives the numbers back when it fails', async () => {
    expect(
      (
        await call(t.app, 'POST', share('config/project/increment.itemno'), {
          token: owner,
          body: { value: { name: 'Item no.', prefix: 'IT-', date: '', digits: 4, reset: 'never' } },
        })
      ).error,
    ).toBe(0);
    const f = await call(t.app, 'POST', `/api/admin/project/${project}/item/field/create`, {
      token: owner,
      body: { name: '编号', type: 'string', field: 'no', option: { increment: 'itemno' } },
    });
    expect(f.error, f.raw).toBe(0);
    const save = async () =>
      (
        await call<{ no: string }>(t.app, 'POST', `/api/admin/data/${project}/item/save`, {
          token: owner,
          body: { title: 'x' },
        })
      ).data.no;
    expect(await save()).toBe('IT-0001');

    // A failing import (one bad row, all or nothing): no row, no number used.
    const failed = await importFile(
      await sheet([
        ['名称', '尺寸'],
        ['h', '中'],
        ['i', 'nope'],
      ]),
    );
    expect(failed.error).toBe(1463);
    expect(await save()).toBe('IT-0002');

    // 1,200 rows (several written chunks; on SQLite the worker path): consecutive numbers, a value in
    // the numbered column is replaced as on create.
    const many = [
      ['名称', '编号', '尺寸'],
      ...Array.from({ length: 1200 }, (_, i) => [`r${i}`, 'mine', '中']),
    ];
    const ok = await importFile(await sheet(many));
    expect(ok.error, JSON.stringify(ok).slice(0, 300)).toBe(0);
    expect(ok.data.inserted).toBe(1200);
    const numbers = (
      await t.app.database.db
        .selectFrom('share_increments')
        .select('value')
        .where('project_id', '=', project)
        .where('key', '=', 'increment.itemno')
        .executeTakeFirstOrThrow()
    ).value;
    expect(Number(numbers)).toBe(1202);
    expect(await save()).toBe('IT-1203');
    const byTitle = new Map((await rows()).map((r) => [r.title, r.no]));
    expect({ r0: byTitle.get('r0'), r1: byTitle.get('r1'), r1199: byTitle.get('r1199') }).toEqual({
      r0: 'IT-0003',
      r1: 'IT-0004',
      r1199: 'IT-1202',
    });

    // keepGood: good rows numbered, bad rows skipped and not numbered.
    const partial = await importFile(
      await sheet([
        ['名称', '尺寸'],
        ['k', '中'],
        ['l', 'bad'],
        ['m', '大'],
      ]),
      true,
    );
    expect(partial.error).toBe(0);
    expect(partial.data).toMatchObject({ inserted: 2, failed: 1 });
    expect(await save()).toBe('IT-1206');
  }, 120_000);

  it('feature flags: the installation offers, the project switches, bad switches are refused (2100)', async () => {
    const features = (token = owner) =>
      call<{
        flags: Record<string, boolean>;
        stored: Record<string, boolean>;
        installed: string[];
        debugOpen: boolean;
      }>(t.app, 'GET', `/api/admin/project/${project}/features`, { token });
    const first = await features();
    expect(first.error, first.raw).toBe(0);
    expect(first.data.installed).toEqual(['user', 'auth', 'menu', 'data', 'i18n', 'share', 'selection']);
    expect(first.data.flags).toMatchObject({ user: true, schedule: false, deploy: false, 'user.kick': true });
    expect(first.data.debugOpen).toBe(false);

    const put = (value: unknown) =>
      call(t.app, 'POST', share('config/project/features'), { token: owner, body: { value } });
    for (const value of [{ nope: true }, { user: 'yes' }, [true], 'x', { 'user.fly': false }])
      expect((await put(value)).error, JSON.stringify(value)).toBe(2100);
    expect((await features()).data.stored).toEqual({});
    expect((await put({ i18n: false, 'user.kick': false, schedule: true })).error).toBe(0);
    const after = (await features()).data;
    expect(after.flags).toMatchObject({
      i18n: false,
      'user.kick': false,
      'user.create': true,
      schedule: false,
    });
    // A feature off takes its parts with it.
    expect((await put({ user: false })).error).toBe(0);
    expect((await features()).data.flags['user.create']).toBe(false);
    expect((await features(other)).error).not.toBe(0);
    // Back to everything on: the server acts on the switches, and the tests below use i18n.
    expect((await put({})).error).toBe(0);
  });

  it('debug mode needs the secret derived from the host and the project (2101 otherwise)', async () => {
    const ask = (body: unknown, token = owner, host = 'admin.example') =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/project/${project}/debug`,
        headers: { token, host, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const secret = debugSecret('k3y', 'admin.example', project);
    expect(JSON.parse((await ask({})).body).error).toBe(2101);
    expect(JSON.parse((await ask({ secret: '0'.repeat(16) })).body).error).toBe(2101);
    expect(JSON.parse((await ask({ secret }, owner, 'other.example')).body).error).toBe(2101);
    expect(JSON.parse((await ask({ secret })).body)).toEqual({ error: 0, data: { debug: true } });
    expect(JSON.parse((await ask({ secret: secret.toUpperCase() })).body).error).toBe(0);
    expect(JSON.parse((await ask({ secret: 'x'.repeat(65) })).body).error).toBe(1000);
    expect(JSON.parse((await ask({ secret }, other)).body).error).not.toBe(0);
  });

  it('/system/i18n lists widget captions of published pages and option labels, with their ids', async () => {
    const pageId = newId();
    const pos = { x: 0, y: 0, w: 4, h: 2 };
    const widget = (id: string, kind: string, props: Record<string, unknown>) => ({
      id,
      kind,
      version: 1,
      props,
      layout: { pc: pos, mobile: pos },
    });
    const now = Date.now();
    await t.app.database.db
      .insertInto('pages')
      .values({
        id: pageId,
        project_id: project,
        name: '订单页',
        created_at: now,
        updated_at: now,
        published: JSON.stringify({
          id: pageId,
          title: '订单',
          widgets: [widget('w1', 'button', { text: '提交' }), widget('w2', 'text', { text: { $expr: 'x' } })],
        }),
        published_version: 1,
        published_at: now,
        updated_by: null,
      })
      .execute();
    const sources = await call<{ id: string; kind: string; where: string; source: string }[]>(
      t.app,
      'GET',
      `/api/admin/project/${project}/i18n/sources`,
      { token: owner },
    );
    expect(sources.error, sources.raw).toBe(0);
    const byId = new Map(sources.data.map((r) => [r.id, r]));
    expect(byId.get(`${pageId}.w1`)).toEqual({
      id: `${pageId}.w1`,
      kind: 'widget',
      where: '订单页',
      source: '提交',
    });
    expect(byId.has(`${pageId}.w2`)).toBe(false);
    // The set's options once (its fields are translated through it), a field's own list per field.
    expect(sources.data.filter((r) => r.id.startsWith('set:sizes.')).map((r) => r.source)).toEqual([
      '中',
      '大',
    ]);
    expect(sources.data.filter((r) => r.where === 'Item · 颜色').map((r) => r.source)).toEqual(['红', '蓝']);
    expect(
      (await call(t.app, 'GET', `/api/admin/project/${project}/i18n/sources`, { token: other })).error,
    ).not.toBe(0);
  });
});
