import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWidget } from '../../widgets/index.ts';
import { emptyPage, instanceOf } from '../fixtures/pages.ts';
import { seedProject, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

/** Another project's ids must not be accepted into this project's configuration. */
describe.each(dialects)("another project's ids in configuration on %s", (dialect) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let mine: string;
  let theirs: string;
  const ids = {} as {
    myTable: string;
    myField: string;
    myPage: string;
    theirTable: string;
    theirField: string;
    theirPage: string;
  };
  const as = (token: string) => ({
    get: (url: string) => call<Record<string, unknown>>(t.app, 'GET', url, { token }),
    post: (url: string, body: unknown) => call<Record<string, unknown>>(t.app, 'POST', url, { token, body }),
  });

  async function table(token: string, project: string, code: string) {
    const api = as(token);
    const e = await api.post(`/api/admin/project/${project}/entity/create`, { name: code, code });
    expect(e.error).toBe(0);
    const f = await api.post(`/api/admin/project/${project}/${code}/field/create`, {
      name: 'Name',
      type: 'string',
      field: 'name',
    });
    expect(f.error).toBe(0);
    return { table: e.data._id as string, field: f.data._id as string };
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    const other = await seedUser(t.app);
    mine = (await seedProject(t.app, owner.id)).id;
    theirs = (await seedProject(t.app, other.id)).id;
    const a = await table(owner.token, mine, 'mine');
    const b = await table(other.token, theirs, 'theirs');
    Object.assign(ids, { myTable: a.table, myField: a.field, theirTable: b.table, theirField: b.field });
    const pa = await as(owner.token).post(`/api/admin/page/${mine}/create`, { name: 'Mine' });
    const pb = await as(other.token).post(`/api/admin/page/${theirs}/create`, {
      name: 'Theirs',
      display: true,
    });
    ids.myPage = pa.data._id as string;
    ids.theirPage = pb.data._id as string;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a display menu entry naming another project’s page is refused like a page entry (1202)', async () => {
    const api = as(owner.token);
    const base = `/api/admin/route/${mine}`;
    for (const type of ['page', 'display']) {
      const r = await api.post(`${base}/create`, { type, name: `${type} foreign`, value: ids.theirPage });
      expect([type, r.error]).toEqual([type, 1202]);
    }
    expect(
      (await api.post(`${base}/create`, { type: 'table', name: 't', value: ids.theirTable })).error,
    ).toBe(1400);
    const ok = await api.post(`${base}/create`, { type: 'display', name: 'mine', value: ids.myPage });
    expect(ok.error).toBe(0);
    const moved = await api.post(`${base}/${ok.data._id}/update`, { value: ids.theirPage });
    expect(moved.error).toBe(1202);
    const list = await api.get(`${base}/list`);
    expect(JSON.stringify(list.data)).not.toContain(ids.theirPage);
  });

  /** A page whose widgets name `refs`; `extra` adds to the document. */
  function doc(refs: { table?: string; field?: string; page?: string; open?: string; source?: string }) {
    const d = emptyPage();
    const tbl = instanceOf(getWidget('table')!, 'tbl');
    tbl.props.entity = refs.table ?? ids.myTable;
    const form = instanceOf(getWidget('form')!, 'frm', 5);
    form.props.entity = ids.myTable;
    form.props.fields = [{ field: refs.field ?? 'name' }];
    const sub = instanceOf(getWidget('page')!, 'sub', 10);
    sub.props.page = refs.page ?? ids.myPage;
    const btn = instanceOf(getWidget('button')!, 'btn', 15);
    btn.events = { onClick: [{ type: 'openPage', page: refs.open ?? ids.myPage }] };
    d.widgets = [tbl, form, sub, btn];
    d.dataSources = [{ id: 'ds1', type: 'entity', entity: refs.source ?? 'mine' }];
    return d;
  }

  it("page saves refuse widgets, actions and data sources naming another project's table, field or page", async () => {
    const api = as(owner.token);
    const P = `/api/admin/page/${mine}`;
    const created = await api.post(`${P}/create`, { name: 'refs', document: doc({}) });
    expect(created.error).toBe(0);
    const id = created.data._id as string;
    const draft = async () => JSON.stringify((await api.get(`${P}/${id}`)).data.document);
    const before = await draft();
    const cases: Array<[string, Parameters<typeof doc>[0], number]> = [
      ['table widget entity', { table: ids.theirTable }, 1400],
      ['table widget entity by code', { table: 'theirs' }, 1400],
      ['form field by id', { field: ids.theirField }, 1401],
      ['form field by unknown code', { field: 'nope' }, 1401],
      ['page widget', { page: ids.theirPage }, 1202],
      ['openPage action', { open: ids.theirPage }, 1202],
      ['data source', { source: ids.theirTable }, 1400],
    ];
    for (const [what, refs, code] of cases) {
      const r = await api.post(`${P}/${id}/update`, { document: doc(refs) });
      expect([what, r.error]).toEqual([what, code]);
      const c = await api.post(`${P}/create`, { name: 'foreign', document: doc(refs) });
      expect([what, c.error]).toEqual([what, code]);
    }
    expect(await draft()).toBe(before);
    // The project's own names, by id or code, save.
    expect(
      (await api.post(`${P}/${id}/update`, { document: doc({ table: 'mine', field: ids.myField }) })).error,
    ).toBe(0);
  });

  it('a page whose table was removed since can still be saved (only new names are checked)', async () => {
    const api = as(owner.token);
    const gone = await table(owner.token, mine, 'gone');
    const P = `/api/admin/page/${mine}`;
    const created = await api.post(`${P}/create`, { name: 'later', document: doc({ table: gone.table }) });
    expect(created.error).toBe(0);
    const removed = await api.get(`/api/admin/project/${mine}/entity/${gone.table}/remove?confirm=1`);
    expect(removed.error).toBe(0);
    const next = doc({ table: gone.table });
    next.title = 'Edited';
    expect((await api.post(`${P}/${created.data._id}/update`, { document: next })).error).toBe(0);
  });
});
