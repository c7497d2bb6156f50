/**
 * The administration area on both databases (#22, helper admin4b): spreadsheet exports in the
 * reader's language (field names and option labels from /system/i18n), and a project's per-table
 * settings (table config, indexes, role defaults and allowed programs) carried through export and
 * import.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('administration (admin4b) on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let project: string;
  const ids: Record<string, string> = {};
  const share = (p: string, path: string, body: unknown) =>
    call(t.app, 'POST', `/api/app/share/${p}/${path}`, { token: owner, body });

  async function exportRows(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/app/d/${project}/goods/export`,
      headers: { token: owner, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ mode: 'all', ...body }),
    });
    if (res.statusCode !== 200) return { error: (JSON.parse(res.body) as { error: number }).error, rows: [] };
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    return { error: 0, rows };
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const u = await seedUser(t.app);
    owner = u.token;
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'A4B' },
      })
    ).data._id;
    const made = await call(t.app, 'POST', `/api/admin/project/${project}/entity/create`, {
      token: owner,
      body: { name: '商品', code: 'goods' },
    });
    expect(made.error, made.raw).toBe(0);
    expect(
      (await share(project, 'selection/project/sizes', { value: { name: '尺寸', list: ['小', '中', '大'] } }))
        .error,
    ).toBe(0);
    const fields = [
      { name: '名称', type: 'string', field: 'title' },
      { name: '尺寸', type: 'option', field: 'size', option: { info: { selection: 'sizes' } } },
      { name: '颜色', type: 'option', field: 'colour', option: { info: { list: ['红', '蓝'] } } },
      { name: '标签', type: 'options', field: 'tags', option: { info: { list: ['新', '旧'] } } },
    ];
    for (const body of fields) {
      const r = await call<{ _id: string }>(
        t.app,
        'POST',
        `/api/admin/project/${project}/goods/field/create`,
        {
          token: owner,
          body,
        },
      );
      expect(r.error, r.raw).toBe(0);
      ids[body.field] = r.data._id;
    }
    const saved = await call(t.app, 'POST', `/api/admin/data/${project}/goods/save`, {
      token: owner,
      body: { title: '甲', size: '中', colour: '蓝', tags: ['新', '旧'] },
    });
    expect(saved.error, saved.raw).toBe(0);
    const en = {
      [ids.title!]: 'Title',
      [ids.size!]: 'Size',
      [ids.colour!]: 'Colour',
      [ids.tags!]: 'Tags',
      'set:sizes.中': 'Medium',
      [`${ids.colour}.蓝`]: 'Blue',
      [`${ids.tags}.新`]: 'New',
    };
    expect((await share(project, 'i18n/project/text.en', { value: en })).error).toBe(0);
  }, 60_000);
  afterAll(() => t?.close());

  it('/system/i18n lists the field names to translate', async () => {
    const r = await call<{ id: string; kind: string; source: string }[]>(
      t.app,
      'GET',
      `/api/admin/project/${project}/i18n/sources`,
      { token: owner },
    );
    expect(r.error).toBe(0);
    expect(r.data).toEqual(
      expect.arrayContaining([{ id: ids.size, kind: 'field', where: '商品', source: '尺寸' }]),
    );
  });

  it('an export reads in the language asked for: translated headers and option labels', async () => {
    const en = await exportRows({ lang: 'en', fields: ['title', 'size', 'colour', 'tags'] });
    expect(en.error).toBe(0);
    expect(en.rows).toEqual([
      ['Title', 'Size', 'Colour', 'Tags'],
      ['甲', 'Medium', 'Blue', 'New, 旧'],
    ]);
    // A language without a map: the builder's own words.
    const zh = await exportRows({ lang: 'zh', fields: ['title', 'size', 'colour', 'tags'] });
    expect(zh.rows).toEqual([
      ['名称', '尺寸', '颜色', '标签'],
      ['甲', '中', '蓝', '新, 旧'],
    ]);
    // No lang in the body: the browser's language.
    const header = await exportRows({ fields: ['size'] }, { 'accept-language': 'en-US,en;q=0.9' });
    expect(header.rows).toEqual([['Size'], ['Medium']]);
    const none = await exportRows({ fields: ['size'] });
    expect(none.rows).toEqual([['尺寸'], ['中']]);
  });

  it('export → import → export gives the same definitions, per-table settings included', async () => {
    const db = t.app.database.db;
    const goods = (
      await db.selectFrom('data_entities').select('id').where('project_id', '=', project).execute()
    )[0]!.id;
    // The table's advanced settings, a builder index, a role with a default filter and allowed programs.
    expect(
      (
        await share(project, `config/project/table.${goods}`, {
          value: {
            pageSize: 50,
            rowHeight: 'high',
            sort: { field: 'title', order: 'desc' },
            off: ['export'],
          },
        })
      ).error,
    ).toBe(0);
    const ix = await call(t.app, 'POST', `/api/admin/data/${project}/${goods}/indexes/create`, {
      token: owner,
      body: { fields: [{ field: 'size' }, { field: 'title', order: 'desc' }] },
    });
    expect(ix.error, ix.raw).toBe(0);
    const role = await call<{ _id: string }>(t.app, 'POST', `/api/admin/auth/${project}/main/role/create`, {
      token: owner,
      body: { name: 'Sales' },
    });
    expect(role.error, role.raw).toBe(0);
    const R = `/api/admin/auth/${project}/main/role/${role.data._id}`;
    expect((await call(t.app, 'POST', `${R}/bind`, { token: owner, body: { entity: [goods] } })).error).toBe(
      0,
    );
    const filter = await call(t.app, 'POST', `/api/admin/view/${project}/${goods}/role-filter`, {
      token: owner,
      body: {
        role: role.data._id,
        filter: { conditions: [{ field: 'title', opt: 'eq', value: '甲' }], match: 'and' },
      },
    });
    expect(filter.error, filter.raw).toBe(0);
    const programs = await call(t.app, 'POST', `${R}/table/${goods}/programs`, {
      token: owner,
      body: { programs: [] },
    });
    expect(programs.error, programs.raw).toBe(0);

    type Pkg = Record<string, unknown> & {
      entities: { id: string; code: string }[];
      fields: { id: string; entity_id: string; code: string }[];
      roles: { id: string; name: string }[];
      routes: { id: string; name: string }[];
      pages: { id: string; name: string }[];
      flows: { id: string; name: string }[];
      modules: { id: string; name: string }[];
      share: { model: string; key: string }[];
      indexes: { entity_id: string }[];
    };
    const exported = async (p: string) => {
      const r = await call<Pkg>(t.app, 'POST', `/api/app/share/${p}/exportProject`, {
        token: owner,
        body: {},
      });
      expect(r.error, r.raw).toBe(0);
      return r.data;
    };
    /** The definitions with every id written as what it names, lists in a stable order. */
    const canon = (pkg: Pkg) => {
      const names = new Map<string, string>();
      const code = new Map(pkg.entities.map((e) => [e.id, e.code]));
      for (const e of pkg.entities) names.set(e.id, `table:${e.code}`);
      for (const f of pkg.fields) names.set(f.id, `field:${code.get(f.entity_id)}.${f.code}`);
      for (const r of pkg.roles) names.set(r.id, `role:${r.name}`);
      for (const r of pkg.routes) names.set(r.id, `menu:${r.name}`);
      for (const x of pkg.pages) names.set(x.id, `page:${x.name}`);
      for (const x of pkg.flows) names.set(x.id, `flow:${x.name}`);
      for (const x of pkg.modules) names.set(x.id, `module:${x.name}`);
      const { exportedAt: _a, name: _n, ...rest } = pkg;
      const text = JSON.stringify(rest).replace(/[0-9a-f]{24}/g, (id) => names.get(id) ?? id);
      const out = JSON.parse(text) as Record<string, unknown[]>;
      for (const k of Object.keys(out))
        if (Array.isArray(out[k]))
          out[k] = [...out[k]!].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      return out;
    };

    const first = await exported(project);
    expect(first.share.map((x) => `${x.model}/${x.key}`)).toEqual(
      expect.arrayContaining([
        `config/table.${goods}`,
        `filter/role.${role.data._id}.${goods}`,
        `config/role.${role.data._id}.${goods}`,
      ]),
    );
    expect(first.indexes).toEqual([
      { entity_id: goods, fields: [{ field: 'size' }, { field: 'title', order: 'desc' }] },
    ]);

    const u = await seedUser(t.app);
    const target = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: u.token,
        body: { name: 'T' },
      })
    ).data._id;
    const imported = await call(t.app, 'POST', `/api/app/share/${target}/importProject`, {
      token: u.token,
      body: { package: first },
    });
    expect(imported.error, imported.raw).toBe(0);
    const second = (
      await call<Pkg>(t.app, 'POST', `/api/app/share/${target}/exportProject`, { token: u.token, body: {} })
    ).data;
    expect(second.entities[0]!.id).not.toBe(goods);
    const a = canon(first);
    const b = canon(second);
    // The target project's own default roles (if any) are not the package's.
    b.roles = b.roles!.filter((r) => a.roles!.some((x) => JSON.stringify(x) === JSON.stringify(r)));
    expect(b).toEqual(a);
    // The index is real on the new table, and the role's default filter applies there.
    const newGoods = second.entities[0]!.id;
    const rebuilt = await db
      .selectFrom('data_indexes')
      .selectAll()
      .where('entity_id', '=', newGoods)
      .execute();
    expect(rebuilt).toHaveLength(1);
    expect(rebuilt[0]!.pinned).toBe(1);
  });

  it('a malformed language is refused with 2082', async () => {
    expect((await exportRows({ lang: 'e n' })).error).toBe(2082);
    expect((await exportRows({ lang: '<script>' })).error).toBe(2082);
  });
});
