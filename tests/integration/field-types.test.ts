/**
 * The field types beyond the spec's (boolean, long text, single and multiple option, email, phone,
 * URL, attachment) on both databases: stored in their own columns, checked on save, update and import
 * with coded errors that change nothing, and queried with their own operators.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();
type Row = Record<string, unknown>;

async function workbook(header: string[], rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Data');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe.each(dialects)('field types on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let project: string;
  let other: string;
  const data = (path: string) => `/api/admin/data/${project}/${path}`;

  async function rows(): Promise<Row[]> {
    const r = await call<{ data: Row[] }>(t.app, 'POST', data('task/query'), {
      token: owner,
      body: { all: true, sort: [{ field: '_id', order: 'asc' }] },
    });
    expect(r.error, r.raw).toBe(0);
    return r.data.data;
  }

  async function count(query: unknown): Promise<number | string> {
    const r = await call<{ count: number }>(t.app, 'POST', data('task/query'), {
      token: owner,
      body: { query, count: true },
    });
    return r.error === 0 ? r.data.count : `error ${r.error}: ${r.raw}`;
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'ftowner1',
      pwd: 'abc12345',
      phone: '13600000091',
    }));
    const mk = async (name: string) =>
      (
        await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
          token: owner,
          body: { name },
        })
      ).data._id;
    project = await mk('F');
    other = await mk('G');
    const P = `/api/admin/project/${project}`;
    await call(t.app, 'POST', `${P}/entity/create`, { token: owner, body: { name: 'Task', code: 'task' } });
    for (const [name, type, field, option] of [
      ['Title', 'string', 'title', undefined],
      ['Done', 'boolean', 'done', undefined],
      ['Notes', 'longtext', 'notes', undefined],
      ['Stage', 'option', 'stage', { info: { list: ['todo', 'doing', 'done'] } }],
      ['Tags', 'options', 'tags', { info: { list: ['red', 'green', 'blue'] } }],
      ['Mail', 'email', 'mail', undefined],
      ['Tel', 'phone', 'tel', undefined],
      ['Site', 'url', 'site', undefined],
      ['Files', 'attachment', 'files', undefined],
      ['Size', 'string', 'size', { info: { enable: true, list: ['S', 'M', 'L'] } }],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/task/field/create`, {
        token: owner,
        body: { name, type, field, ...(option ? { option } : {}) },
      });
      expect(r.error, r.raw).toBe(0);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an option field needs a list of distinct options', async () => {
    const P = `/api/admin/project/${project}`;
    for (const option of [
      undefined,
      { info: { list: [] } },
      { info: { list: ['a', 'a'] } },
      { info: { list: [''] } },
    ]) {
      const r = await call(t.app, 'POST', `${P}/task/field/create`, {
        token: owner,
        body: { name: 'X', type: 'option', field: 'xopt', ...(option ? { option } : {}) },
      });
      expect(r.error, JSON.stringify(option)).toBe(1966);
    }
  });

  it('saves and answers each type in its own shape', async () => {
    const file = {
      url: `/upload/project/${project}/main/file/20260101/1_${'a'.repeat(32)}_a.pdf`,
      name: 'a.pdf',
      size: 10,
    };
    const saved = await call<Row>(t.app, 'POST', data('task/save'), {
      token: owner,
      body: {
        title: 'One',
        done: true,
        notes: 'x'.repeat(30_000),
        stage: 'doing',
        tags: ['red', 'blue', 'red'],
        mail: ' ann@example.com ',
        tel: '+86 138-0013-8000',
        site: 'https://example.com/a?b=1',
        files: [file],
        size: 'M',
      },
    });
    expect(saved.error, saved.raw).toBe(0);
    expect(saved.data).toMatchObject({
      done: true,
      stage: 'doing',
      tags: ['red', 'blue'],
      mail: 'ann@example.com',
      tel: '+86 138-0013-8000',
      site: 'https://example.com/a?b=1',
      files: [file],
      size: 'M',
    });
    expect((saved.data.notes as string).length).toBe(30_000);
    const two = await call<Row>(t.app, 'POST', data('task/save'), {
      token: owner,
      body: { title: 'Two', done: 'false', stage: 'todo', tags: ['green'] },
    });
    expect(two.error, two.raw).toBe(0);
    expect(two.data).toMatchObject({ done: false, tags: ['green'], files: [], mail: null });
    const three = await call<Row>(t.app, 'POST', data('task/save'), {
      token: owner,
      body: { title: 'Three' },
    });
    expect(three.data).toMatchObject({ done: null, tags: [], stage: null });
  });

  it('refuses bad values with their codes and changes nothing', async () => {
    const before = await rows();
    const cases: [Row, number][] = [
      [{ stage: 'someday' }, 1960],
      [{ stage: ['todo'] }, 1960],
      [{ tags: ['red', 'pink'] }, 1960],
      [{ tags: 'pink' }, 1960],
      [{ size: 'XL' }, 1960],
      [{ done: 'maybe' }, 1964],
      [{ done: 2 }, 1964],
      [{ mail: 'not-an-email' }, 1961],
      [{ mail: 'a@b' }, 1961],
      [{ tel: 'call me' }, 1962],
      [{ site: 'javascript:alert(1)' }, 1963],
      [{ site: 'example.com' }, 1963],
      [{ files: [{ url: '/etc/passwd', name: 'p', size: 1 }] }, 1965],
      [
        { files: [{ url: `/upload/project/${other}/main/file/20260101/x.pdf`, name: 'x.pdf', size: 1 }] },
        1965,
      ],
      [{ files: [{ url: `/upload/project/${project}/main/file/../../x`, name: 'x', size: 1 }] }, 1965],
      [{ files: ['https://example.com/x.pdf'] }, 1965],
      [{ notes: 'x'.repeat(100_001) }, 1112],
    ];
    for (const [body, code] of cases) {
      const r = await call(t.app, 'POST', data('task/save'), {
        token: owner,
        body: { title: 'Bad', ...body },
      });
      expect(r.error, JSON.stringify(body)).toBe(code);
      expect(r.raw).toContain(Object.keys(body)[0]);
      const u = await call(t.app, 'POST', data(`task/${before[0]!._id}/update`), { token: owner, body });
      expect(u.error, `update ${JSON.stringify(body)}`).toBe(code);
    }
    expect(await rows()).toEqual(before);
  });

  it('queries with each type’s operators', async () => {
    const cases: [unknown, number][] = [
      [{ field: 'done', type: 'boolean', opt: 'eq', value: true }, 1],
      [{ field: 'done', type: 'boolean', opt: 'eq', value: false }, 1],
      [{ field: 'done', type: 'boolean', opt: 'isnull' }, 1],
      [{ field: 'done', type: 'boolean', opt: 'notnull' }, 2],
      [{ field: 'stage', type: 'option', opt: 'in', value: ['doing', 'done'] }, 1],
      [{ field: 'stage', type: 'option', opt: 'notin', value: ['doing'] }, 1],
      [{ field: 'stage', type: 'option', opt: 'isnull' }, 1],
      [{ field: 'tags', type: 'options', opt: 'hasany', value: ['blue', 'green'] }, 2],
      [{ field: 'tags', type: 'options', opt: 'hasall', value: ['red', 'blue'] }, 1],
      [{ field: 'tags', type: 'options', opt: 'hasall', value: ['red', 'green'] }, 0],
      [{ field: 'tags', type: 'options', opt: 'hasnone', value: ['red'] }, 1],
      [{ field: 'tags', type: 'options', opt: 'isnull' }, 1],
      [{ field: 'mail', type: 'text', opt: 'end', value: '@example.com' }, 1],
      [{ field: 'files', type: 'text', opt: 'notnull' }, 1],
    ];
    for (const [q, n] of cases) expect(await count([q]), JSON.stringify(q)).toBe(n);
    // Wrong query types and operators for the field are refused.
    expect(await count([{ field: 'done', type: 'text', opt: 'eq', value: 'true' }])).toMatch(/^error/);
    expect(await count([{ field: 'tags', type: 'options', opt: 'in', value: ['red'] }])).toMatch(/^error/);
    // Booleans sort false, true after empty; multiple options cannot be sorted.
    const sorted = await call<{ data: Row[] }>(t.app, 'POST', data('task/query'), {
      token: owner,
      body: { sort: [{ field: 'done', order: 'asc' }] },
    });
    expect(sorted.data.data.map((r) => r.done)).toEqual([null, false, true]);
    const bad = await call(t.app, 'POST', data('task/query'), {
      token: owner,
      body: { sort: [{ field: 'tags', order: 'asc' }] },
    });
    expect(bad.error).not.toBe(0);
    // Group by a boolean and by an option.
    const sum = await call<{ groups: { key: unknown[]; values: Row }[] }>(
      t.app,
      'POST',
      data('task/summary'),
      {
        token: owner,
        body: { summary: { group: ['done'], metrics: [{ fn: 'count' }] } },
      },
    );
    expect(sum.error, sum.raw).toBe(0);
    expect(sum.data.groups.map((g) => [g.key[0], g.values.count])).toEqual([
      [null, 1],
      [0, 1],
      [1, 1],
    ]);
  });

  it('imports with the same checks (bad rows listed, nothing written) and exports back', async () => {
    const before = await rows();
    const file = await workbook(
      ['Title', 'Done', 'Stage', 'Tags', 'Mail', 'Site'],
      [
        ['ok', '是', 'todo', 'red, green', 'b@example.com', 'http://x.example'],
        ['bad stage', 'no', 'later', '', '', ''],
        ['bad tag', true, 'todo', 'red, pink', '', ''],
        ['bad bool', 'perhaps', '', '', '', ''],
        ['bad mail', false, '', '', 'nope', ''],
      ],
    );
    const send = (query = '') =>
      t.app.inject({
        method: 'POST',
        url: `/api/app/d/${project}/task/import${query}`,
        headers: { token: owner, 'content-type': 'application/octet-stream' },
        payload: file,
      });
    const res = JSON.parse((await send()).body) as { error: number; data: { errors: Row[] } };
    expect(res.error).toBe(1463);
    expect(res.data.errors.map((e) => [e.field, e.text])).toEqual([
      ['stage', 'row 3-later'],
      ['tags', 'row 4-red, pink'],
      ['done', 'row 5-perhaps'],
      ['mail', 'row 6-nope'],
    ]);
    expect(await rows()).toEqual(before);
    const kept = JSON.parse((await send('?keepGood=1')).body) as { error: number; data: Row };
    expect(kept.error).toBe(0);
    const added = (await rows()).find((r) => r.title === 'ok');
    expect(added).toMatchObject({ done: true, stage: 'todo', tags: ['red', 'green'], mail: 'b@example.com' });

    const out = await t.app.inject({
      method: 'POST',
      url: `/api/app/d/${project}/task/export`,
      headers: { token: owner, 'content-type': 'application/json' },
      payload: JSON.stringify({ mode: 'all', fields: ['title', 'done', 'tags', 'files'] }),
    });
    expect(out.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const byTitle = new Map<string, unknown[]>();
    ws.eachRow((row, n) => {
      if (n > 1) byTitle.set(String(row.getCell(1).value), (row.values as unknown[]).slice(1));
    });
    expect(byTitle.get('One')?.slice(1, 3)).toEqual([true, 'red, blue']);
    expect(String(byTitle.get('One')?.[3])).toMatch(new RegExp(`^/upload/project/${project}/`));
    expect(byTitle.get('ok')?.slice(1, 3)).toEqual([true, 'red, green']);
  });
});
