import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

type Row = Record<string, unknown>;

/** A template placeholder `${name}` (kept out of string literals for the linter). */
const ph = (name: string) => `$${'{'}${name}}`;

/** An xlsx made with exceljs: a header row, then the rows. */
async function workbook(
  header: string[],
  rows: unknown[][],
  prepare?: (ws: ExcelJS.Worksheet) => void,
  sheet = 'Data',
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  prepare?.(ws);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A stored-only or deflated zip written by hand, so entries can lie about their sizes. */
function zip(entries: { name: string; data: Buffer; declared?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const comp = zlib.deflateRawSync(e.data);
    const name = Buffer.from(e.name);
    const size = e.declared ?? e.data.length;
    const crc = zlib.crc32(e.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(comp.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(comp.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, comp);
    centrals.push(central, name);
    offset += 30 + name.length + comp.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

describe.each(dialects)('xlsx import and export on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let clerk: string;
  let guest: string;
  let project: string;
  const ids: Record<string, string> = {};
  const url = (entity: string, what: string) => `/api/app/d/${project}/${entity}/${what}`;

  async function upload(entity: string, file: Buffer, token: string, query = '') {
    const res = await t.app.inject({
      method: 'POST',
      url: `${url(entity, 'import')}${query}`,
      headers: { token, 'content-type': 'application/octet-stream' },
      payload: file,
    });
    return {
      status: res.statusCode,
      ...(JSON.parse(res.body) as { error: number; msg?: string; data: Row }),
    };
  }

  async function download(entity: string, body: unknown, token = owner) {
    const res = await t.app.inject({
      method: 'POST',
      url: url(entity, 'export'),
      headers: { token, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    if (res.headers['content-type'] !== 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') {
      return {
        status: res.statusCode,
        json: JSON.parse(res.body) as { error: number; msg?: string },
        wb: null,
        headers: res.headers,
      };
    }
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    return { status: res.statusCode, json: null, wb, headers: res.headers };
  }

  async function rows(entity: string): Promise<Row[]> {
    const r = await call<{ data: Row[] }>(t.app, 'POST', `/api/admin/data/${project}/${entity}/query`, {
      token: owner,
      body: { all: true, sort: [{ field: '_id', order: 'asc' }] },
    });
    expect(r.error, r.raw).toBe(0);
    return r.data.data;
  }

  beforeAll(async () => {
    t = await createTestApp(dialect, { importLimit: 2 * 1024 * 1024 });
    ({ token: owner } = await registerUser(t.app, {
      user: 'xlsxowner',
      pwd: 'abc12345',
      phone: '13600000031',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'X' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    for (const [name, code] of [
      ['Customer', 'customer'],
      ['Order', 'order'],
    ]) {
      const e = await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
        token: owner,
        body: { name, code },
      });
      ids[code!] = e.data._id;
    }
    await call(t.app, 'POST', `${P}/customer/field/create`, {
      token: owner,
      body: { name: 'Name', type: 'string', field: 'name' },
    });
    for (const [name, type, field, extra] of [
      ['Title', 'string', 'title', {}],
      ['Amount', 'number', 'amount', { option: { decimals: 2, alias: '金额' } }],
      ['Day', 'date', 'day', {}],
      ['At', 'time', 'at', {}],
      ['Photo', 'image', 'photo', {}],
      ['Customer', 'relate', 'customer', { relate: 'customer' }],
      ['Also', 'collection', 'also', { relate: 'customer' }],
      ['Status', 'string', 'status', { option: { info: { enable: true, list: ['open', 'closed'] } } }],
      ['Secret', 'string', 'secret', { hide: true }],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/order/field/create`, {
        token: owner,
        body: { name, type, field, ...extra },
      });
      expect(r.error, r.raw).toBe(0);
    }
    for (const name of ['ACME', 'Beta', 'Twin', 'Twin']) {
      const c = await call<{ _id: string }>(t.app, 'POST', `/api/admin/data/${project}/customer/save`, {
        token: owner,
        body: { name },
      });
      ids[name] = c.data._id;
    }
    const A = `/api/admin/auth/${project}/main/role`;
    const yes = await call<{ _id: string }>(t.app, 'POST', `${A}/create`, {
      token: owner,
      body: { name: 'Clerk' },
    });
    const no = await call<{ _id: string }>(t.app, 'POST', `${A}/create`, {
      token: owner,
      body: { name: 'Guest' },
    });
    await call(t.app, 'POST', `${A}/${yes.data._id}/bind`, {
      token: owner,
      body: { entity: [ids.order, ids.customer] },
    });
    for (const [account, role] of [
      ['xclerk001', yes.data._id],
      ['xguest001', no.data._id],
    ] as const) {
      const r = await call(t.app, 'POST', `/api/admin/user/${project}/create`, {
        token: owner,
        body: { role, account, pwd: 'abc12345', name: account },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const login = async (user: string) =>
      (
        await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
          body: { user, pwd: 'abc12345' },
        })
      ).data.token;
    clerk = await login('xclerk001');
    guest = await login('xguest001');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('imports every field type, relate by name or id, header by name, alias or key', async () => {
    const file = await workbook(
      ['Title', '金额', 'day', 'At', 'Photo', 'Customer', 'Also', 'Status', 'Unknown'],
      [
        [
          'One',
          12.345,
          new Date(Date.UTC(2024, 2, 15)),
          '08:30',
          '/a.png',
          'ACME',
          'ACME, Beta',
          'open',
          'x',
        ],
        [
          'Two',
          '7',
          '2024-03-16 09:15',
          new Date(Date.UTC(1899, 11, 30, 17, 45, 10)),
          '/b.png /c.png',
          ids.Beta,
          '',
          'closed',
          '',
        ],
        ['Three', null, null, null, null, null, null, null, null],
      ],
    );
    const before = (await rows('order')).length;
    const r = await upload('order', file, owner);
    expect(r.error, JSON.stringify(r)).toBe(0);
    expect(r.data).toMatchObject({ inserted: 3, failed: 0, errors: [], ignored: ['Unknown'] });
    const all = await rows('order');
    expect(all.length).toBe(before + 3);
    const one = all.find((x) => x.title === 'One')!;
    expect(one).toMatchObject({
      amount: 12.35,
      at: '08:30:00',
      photo: '/a.png',
      customer: ids.ACME,
      _customer: 'ACME',
      status: 'open',
    });
    expect(one.day).toBe(Date.UTC(2024, 2, 14, 16)); // midnight in Beijing
    expect(one.also).toEqual([ids.ACME, ids.Beta]);
    const two = all.find((x) => x.title === 'Two')!;
    expect(two).toMatchObject({ amount: 7, at: '17:45:10', customer: ids.Beta, also: [] });
    expect(two.day).toBe(Date.UTC(2024, 2, 16, 1, 15));
    expect(JSON.parse(String(two.photo))).toEqual(['/b.png', '/c.png']);
    expect(all.find((x) => x.title === 'Three')).toMatchObject({ amount: null, customer: null, also: [] });
  });

  it('row errors: nothing written, every error listed as "row {index}-{value}"', async () => {
    const before = (await rows('order')).length;
    const file = await workbook(
      ['Title', 'Amount', 'Customer', 'Status', 'Day'],
      [
        ['ok', 1, 'ACME', 'open', '2024-01-01'],
        ['bad number', 'abc', 'ACME', 'open', ''],
        ['bad relate', 2, 'Nobody', 'open', ''],
        ['ambiguous', 3, 'Twin', 'open', ''],
        ['bad option', 4, 'ACME', 'maybe', ''],
        ['bad date', 5, '', '', 'someday'],
      ],
    );
    const r = await upload('order', file, owner);
    expect(r.status).toBe(400);
    expect(r.error).toBe(1463);
    const errors = (r.data as { errors: { text: string; field: string; reason: string }[] }).errors;
    expect(errors.map((e) => e.text)).toEqual([
      'row 3-abc',
      'row 4-Nobody',
      'row 5-Twin',
      'row 6-maybe',
      'row 7-someday',
    ]);
    expect(errors.map((e) => e.field)).toEqual(['amount', 'customer', 'customer', 'status', 'day']);
    expect((r.data as { failed: number }).failed).toBe(5);
    expect((await rows('order')).length).toBe(before);

    const kept = await upload('order', file, owner, '?keepGood=1');
    expect(kept.error, JSON.stringify(kept)).toBe(0);
    expect(kept.data).toMatchObject({ inserted: 1, failed: 5 });
    const after = await rows('order');
    expect(after.length).toBe(before + 1);
    expect(after.some((x) => x.title === 'ok')).toBe(true);
  });

  it('inserts in chunks: 1,200 rows in one go', async () => {
    const before = (await rows('customer')).length;
    const file = await workbook(
      ['Name'],
      Array.from({ length: 1200 }, (_, i) => [`bulk ${i}`]),
    );
    const r = await upload('customer', file, owner);
    expect(r.error, JSON.stringify(r)).toBe(0);
    expect(r.data.inserted).toBe(1200);
    const count = await call<{ count: number }>(t.app, 'POST', `/api/admin/data/${project}/customer/query`, {
      token: owner,
      body: { count: true, page: { index: 1, size: 1 } },
    });
    expect(count.data.count).toBe(before + 1200);
  });

  it("the variant without the table in the path: ?entity=, else the first sheet's name", async () => {
    const send = (file: Buffer, token: string, query = '') =>
      t.app
        .inject({
          method: 'POST',
          url: `/api/app/d/${project}/import${query}`,
          headers: { token, 'content-type': 'application/octet-stream' },
          payload: file,
        })
        .then((res) => ({
          status: res.statusCode,
          ...(JSON.parse(res.body) as { error: number; data: Row }),
        }));
    const before = (await rows('customer')).length;
    // Named by code in the query, whatever the sheet is called.
    let r = await send(await workbook(['Name'], [['by query']]), owner, '?entity=customer');
    expect(r.error, JSON.stringify(r)).toBe(0);
    expect(r.data.inserted).toBe(1);
    // By the sheet name: the table's code, then its name (as an export names the sheet).
    r = await send(await workbook(['Name'], [['by code sheet']], undefined, 'customer'), owner);
    expect(r.error, JSON.stringify(r)).toBe(0);
    r = await send(await workbook(['Name'], [['by name sheet']], undefined, 'Customer'), owner);
    expect(r.error, JSON.stringify(r)).toBe(0);
    const names = (await rows('customer')).map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['by query', 'by code sheet', 'by name sheet']));
    expect(names.length).toBe(before + 3);
    // Unknown tables, other projects' tables, refused callers, broken files: coded, nothing written.
    expect((await send(await workbook(['Name'], [['x']], undefined, 'Nope'), owner)).error).toBe(1400);
    expect((await send(await workbook(['Name'], [['x']]), owner, '?entity=nope')).error).toBe(1400);
    expect((await send(await workbook(['Name'], [['x']], undefined, 'Customer'), guest)).error).toBe(1102);
    expect((await send(await workbook(['Secret'], [['x']], undefined, 'Order'), clerk)).error).toBe(1464);
    expect((await send(Buffer.from('Name\nx\n'), owner)).error).toBe(1460);
    const bomb = zip([{ name: 'xl/workbook.xml', data: Buffer.alloc(20 * 1024 * 1024) }]);
    expect((await send(bomb, owner)).error).toBe(1462);
    expect(
      (await send(await workbook(['Name'], [['x']]), owner, '?entity=customer&keepGood=maybe')).error,
    ).toBe(1000);
    expect((await rows('customer')).length).toBe(before + 3);
  });

  it('all or nothing without one long transaction: other writers go first, a failed chunk is undone', async () => {
    const P = `/api/admin/project/${project}`;
    const e = await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
      token: owner,
      body: { name: 'Bulk', code: 'bulk' },
    });
    const f = await call<{ _id: string }>(t.app, 'POST', `${P}/bulk/field/create`, {
      token: owner,
      body: { name: 'Name', type: 'string', field: 'name' },
    });
    await call(t.app, 'POST', `${P}/bulk/field/create`, {
      token: owner,
      body: { name: 'Qty', type: 'number', field: 'qty' },
    });
    const count = async () =>
      (
        await call<{ count: number }>(t.app, 'POST', `/api/admin/data/${project}/bulk/query`, {
          token: owner,
          body: { count: true, page: { index: 1, size: 1 } },
        })
      ).data.count;
    const n = 6000;
    const file = await workbook(
      ['Name'],
      Array.from({ length: n }, (_, i) => [i === n - 100 ? 'boom' : `row ${i}`]),
    );
    // A save issued while the import runs is answered before the import is: it never waits for the
    // whole import (on SQLite, where one long transaction would hold the only connection).
    const order: string[] = [];
    const importing = upload('bulk', file, owner).then((r) => {
      order.push('import');
      return r;
    });
    const saved = await call(t.app, 'POST', `/api/admin/data/${project}/bulk/save`, {
      token: owner,
      body: { name: 'meanwhile' },
    });
    order.push('save');
    expect(saved.error, saved.raw).toBe(0);
    expect((await importing).error).toBe(0);
    if (dialect === 'sqlite') expect(order).toEqual(['save', 'import']);
    expect(await count()).toBe(n + 1);

    // A database failure in a late chunk (a trigger refusing one row): the earlier chunks are deleted again.
    const table = `e_${e.data._id}`;
    const col = `c_${f.data._id}`;
    const db = t.app.database.db;
    if (dialect === 'sqlite') {
      await sql
        .raw(
          `CREATE TRIGGER boom BEFORE INSERT ON "${table}" WHEN NEW."${col}" = 'boom' BEGIN SELECT RAISE(ABORT, 'boom'); END`,
        )
        .execute(db);
    } else {
      await sql
        .raw(
          `CREATE FUNCTION boom() RETURNS trigger AS $$ BEGIN IF NEW."${col}" = 'boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
        )
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER boom BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION boom()`)
        .execute(db);
    }
    for (const query of ['', '?keepGood=1']) {
      const r = await upload('bulk', file, owner, query);
      expect(r.error).not.toBe(0);
      expect(r.msg ?? '').not.toMatch(/boom|trigger|INSERT/i);
      expect(await count()).toBe(n + 1);
    }
    await sql.raw(`DROP TRIGGER boom${dialect === 'postgres' ? ` ON "${table}"` : ''}`).execute(db);
    // Row errors without keepGood: nothing written; with it, the good rows.
    const bad = await workbook(
      ['Name', 'Qty'],
      Array.from({ length: 1500 }, (_, i) => [`again ${i}`, i === 1400 ? 'many' : i]),
    );
    expect((await upload('bulk', bad, owner)).error).toBe(1463);
    expect(await count()).toBe(n + 1);
    const kept = await upload('bulk', bad, owner, '?keepGood=1');
    expect(kept.data).toMatchObject({ inserted: 1499, failed: 1 });
    expect(await count()).toBe(n + 1 + 1499);
  });

  it('refuses zip bombs, lying sizes, oversize and non-xlsx files, changing nothing', async () => {
    const before = (await rows('order')).length;
    const zeros = Buffer.alloc(20 * 1024 * 1024);
    const honestBomb = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<x/>') },
      { name: 'xl/worksheets/sheet1.xml', data: zeros },
    ]);
    expect(honestBomb.length).toBeLessThan(100_000);
    let r = await upload('order', honestBomb, owner);
    expect([r.status, r.error]).toEqual([400, 1462]);
    // A directory that claims a small size: caught while counting the real output.
    const liar = zip([{ name: 'xl/worksheets/sheet1.xml', data: zeros, declared: 1000 }]);
    r = await upload('order', liar, owner);
    expect(r.error).toBe(1462);
    r = await upload('order', Buffer.from('Title,Amount\nx,1\n'), owner);
    expect([r.status, r.error]).toEqual([400, 1460]);
    r = await upload('order', zip([{ name: 'hello.txt', data: Buffer.from('hi') }]), owner);
    expect(r.error).toBe(1460);
    r = await upload('order', Buffer.alloc(3 * 1024 * 1024, 1), owner);
    expect([r.status, r.error]).toEqual([413, 1461]);
    const res = await t.app.inject({
      method: 'POST',
      url: url('order', 'import'),
      headers: { token: owner, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(JSON.parse(res.body).error).toBe(1460);
    r = await upload('order', await workbook(['Title'], []), owner);
    expect(r.error).toBe(1465);
    expect((await rows('order')).length).toBe(before);
  });

  it('exports formula-like text as text, numbers and dates typed, names for relations', async () => {
    const hostile = ['=1+1', '+SUM(A1:A2)', '-2+3', '@cmd', '\t=x', '=HYPERLINK("http://evil","x")'];
    for (const title of hostile) {
      const s = await call(t.app, 'POST', `/api/admin/data/${project}/order/save`, {
        token: owner,
        body: {
          title,
          amount: 3.5,
          day: '2024-05-01 10:20',
          customer: ids.ACME,
          also: [ids.ACME, ids.Beta],
          secret: 's',
        },
      });
      expect(s.error, s.raw).toBe(0);
    }
    const out = await download('order', {
      mode: 'all',
      query: { field: 'amount', type: 'number', opt: 'eq', value: 3.5 },
    });
    expect(out.status).toBe(200);
    expect(String(out.headers['content-disposition'])).toMatch(/filename\*=UTF-8''Order-\d{8}-\d{4}\.xlsx/);
    const ws = out.wb!.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['Title', 'Amount', 'Day', 'At', 'Photo', 'Customer', 'Also', 'Status', 'Secret']);
    expect(ws.rowCount).toBe(1 + hostile.length);
    const titles: unknown[] = [];
    ws.eachRow((row, n) => {
      if (n === 1) return;
      const cell = row.getCell(1);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.formula).toBeUndefined();
      expect(cell.numFmt).toBe('@');
      titles.push(cell.value);
      expect(row.getCell(2).value).toBe(3.5);
      expect(row.getCell(3).value).toEqual(new Date(Date.UTC(2024, 4, 1, 10, 20)));
      expect(row.getCell(6).value).toBe('ACME');
      expect(row.getCell(7).value).toBe('ACME, Beta');
    });
    expect(titles.sort()).toEqual([...hostile].sort());

    // Round trip: the exported file imports back (hidden column included for the owner).
    const res = await t.app.inject({
      method: 'POST',
      url: url('order', 'export'),
      headers: { token: owner, 'content-type': 'application/json' },
      payload: JSON.stringify({
        mode: 'page',
        page: { index: 1, size: 2 },
        fields: ['title', 'amount', 'customer'],
      }),
    });
    const back = await upload('order', res.rawPayload, owner);
    expect(back.error, JSON.stringify(back)).toBe(0);
    expect(back.data.inserted).toBe(2);
  });

  it('refuses bad export requests with coded errors', async () => {
    expect((await download('order', { fields: ['nope'] })).json?.error).toBe(1468);
    expect(
      (await download('order', { fields: Array.from({ length: 31 }, (_, i) => `f${i}`) })).json?.error,
    ).toBe(1468);
    expect((await download('order', { mode: 'bogus' })).json?.error).toBe(1000);
    expect(
      (await download('order', { query: { field: 'amount', type: 'number', opt: 'eq', value: { $gt: 1 } } }))
        .json?.error,
    ).toBe(1450);
    expect((await download('order', { mode: 'template', template: 'not base64 xlsx' })).json?.error).toBe(
      1460,
    );
  });

  it('template export: one sheet per record, repeated collection rows, pipes', async () => {
    const tpl = await workbook(
      [`Order ${ph('title')}`, ph('amount'), ph('secret|default:none'), ph('title|qrcode:80')],
      [
        ['Customer', ph('customer'), ph('photo|img'), ph('title|barcode:180x50')],
        [ph('#also.name'), ph('missing|default:-')],
        ['Total', ph('amount')],
      ],
    );
    // `${missing}` names no field: refused.
    const badTpl = await download('order', { mode: 'template', template: tpl.toString('base64') });
    expect(badTpl.json?.error).toBe(1467);
    const good = await workbook(
      [`Order ${ph('title')}`, ph('amount'), ph('status|default:none'), ph('title|qrcode:80')],
      [
        ['Customer', ph('customer'), ph('photo|img'), ph('title|barcode:180x50')],
        [ph('#also.name'), 'item'],
        ['Total', ph('amount')],
      ],
    );
    const out = await download('order', {
      mode: 'template',
      template: good.toString('base64'),
      query: { field: 'title', type: 'text', opt: 'eq', value: '=1+1' },
    });
    expect(out.status, JSON.stringify(out.json)).toBe(200);
    const sheets = out.wb!.worksheets;
    expect(sheets.length).toBe(1);
    const ws = sheets[0]!;
    expect(ws.name).toBe('=1+1');
    expect(ws.getCell('A1').value).toBe('Order =1+1');
    expect(ws.getCell('B1').value).toBe(3.5);
    expect(ws.getCell('C1').value).toBe('none');
    expect(ws.getCell('B2').value).toBe('ACME');
    expect(ws.getCell('A3').value).toBe('ACME');
    expect(ws.getCell('A4').value).toBe('Beta');
    expect(ws.getCell('B4').value).toBe('item');
    expect(ws.getCell('A5').value).toBe('Total');
    expect(ws.getImages().length).toBe(2); // the QR code and the barcode
  });

  it('template img pipe: images of our upload store embedded, scaled; other URLs stay text', async () => {
    const png = grayPng(300, 150, (x) => (x % 20 < 10 ? 0 : 255));
    const stored = await t.app.inject({
      method: 'POST',
      url: `/api/app/util/${project}/upload?type=image&name=p.png`,
      headers: { token: owner, 'content-type': 'application/octet-stream' },
      payload: png,
    });
    const url = (JSON.parse(stored.body) as { data: { url: string } }).data.url;
    expect(url).toMatch(/^\/upload\//);
    const saved = await call(t.app, 'POST', `/api/admin/data/${project}/order/save`, {
      token: owner,
      body: { title: 'pictured', photo: [url, 'https://example.com/x.png'] },
    });
    expect(saved.error, saved.raw).toBe(0);
    const tpl = await workbook([ph('title'), ph('photo|img:60')], []);
    const out = await download('order', {
      mode: 'template',
      template: tpl.toString('base64'),
      query: { field: 'title', type: 'text', opt: 'eq', value: 'pictured' },
    });
    expect(out.status, JSON.stringify(out.json)).toBe(200);
    const ws = out.wb!.worksheets[0]!;
    const images = ws.getImages();
    expect(images.length).toBe(1);
    expect(images[0]!.range.tl.nativeCol).toBe(1);
    expect(
      Buffer.compare(Buffer.from(out.wb!.getImage(Number(images[0]!.imageId)).buffer as ArrayBuffer), png),
    ).toBe(0);
    // The external URL is not fetched: it stays in the cell as text.
    expect(ws.getCell('B1').value).toBe('https://example.com/x.png');
  });

  it('permissions: grants, hidden fields absent from export and refused in import', async () => {
    const file = await workbook(['Title'], [['by clerk']]);
    expect((await upload('order', file, guest)).error).toBe(1102);
    expect((await download('order', {}, guest)).json?.error).toBe(1102);
    const ok = await upload('order', file, clerk);
    expect(ok.error, JSON.stringify(ok)).toBe(0);
    const hidden = await upload('order', await workbook(['Title', 'Secret'], [['x', 'y']]), clerk);
    expect(hidden.error).toBe(1464);
    const out = await download('order', { mode: 'all' }, clerk);
    const header = (out.wb!.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
    expect(header).not.toContain('Secret');
    expect(header).toContain('Title');
    expect((await download('order', { fields: ['secret'] }, clerk)).json?.error).toBe(1468);
    const anon = await t.app.inject({
      method: 'POST',
      url: url('order', 'import'),
      headers: { 'content-type': 'application/octet-stream' },
      payload: file,
    });
    expect(JSON.parse(anon.body).error).not.toBe(0);
  });
});
