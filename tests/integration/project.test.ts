import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { addMember, insertPage, snapshot } from '../helpers/state.ts';

const dialects = await testDialects();

interface Project {
  _id: string;
  _name: string;
  _owner: string;
  _status: number;
  _expired: number | null;
  _limited: boolean;
  role: string | null;
}

describe.each(dialects)('project endpoints on %s', (dialect) => {
  let t: TestApp;
  const owner = { token: '', id: '' };
  const common = { token: '', id: '' };
  const stranger = { token: '', id: '' };
  let project: Project;
  let other: Project;

  const post = <T = unknown>(url: string, body: unknown, token?: string) =>
    call<T>(t.app, 'POST', url, { body, token });
  const get = <T = unknown>(url: string, token?: string) => call<T>(t.app, 'GET', url, { token });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const users: Array<[typeof owner, string, string]> = [
      [owner, 'owner_01', '13700000001'],
      [common, 'common01', '13700000002'],
      [stranger, 'strange1', '13700000003'],
    ];
    for (const [who, user, phone] of users) {
      const r = await registerUser(t.app, { user, pwd: 'abc12345', phone });
      who.token = r.token;
      who.id = r.userId;
    }
    project = (await post<Project>('/api/common/project/create', { name: 'Main' }, owner.token)).data;
    other = (await post<Project>('/api/common/project/create', { name: 'Theirs' }, stranger.token)).data;
    await addMember(t.app, project._id, common.id, 'common');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('create and list', () => {
    it('creates a trial dev project owned by the caller', async () => {
      const r = await post<Project>('/api/common/project/create', { name: '  Second  ' }, owner.token);
      expect(r.error).toBe(0);
      expect(r.data).toMatchObject({
        _name: 'Second',
        _owner: owner.id,
        _status: 0,
        _limited: false,
        role: 'owner',
      });
      expect(r.data._id).toMatch(/^[0-9a-f]{24}$/);
    });

    it('a blank name → 1112; an empty one → 1000; no token → 1100', async () => {
      const before = await snapshot(t.app);
      expect((await post('/api/common/project/create', { name: '   ' }, owner.token)).error).toBe(1112);
      expect((await post('/api/common/project/create', { name: '' }, owner.token)).error).toBe(1000);
      expect((await post('/api/common/project/create', { name: 'x' })).error).toBe(1100);
      expect(await snapshot(t.app)).toBe(before);
    });

    it('lists the caller’s projects with the role, owned first', async () => {
      const mine = await get<Project[]>('/api/common/project/list', owner.token);
      expect(mine.error).toBe(0);
      expect(mine.data.map((p) => p._name)).toEqual(['Main', 'Second']);
      expect(mine.data.every((p) => p.role === 'owner')).toBe(true);
      const theirs = await get<Project[]>('/api/common/project/list', common.token);
      expect(theirs.data).toEqual([expect.objectContaining({ _id: project._id, role: 'common' })]);
      expect((await get('/api/common/project/list')).error).toBe(1100);
    });
  });

  describe('admin get', () => {
    const admin = (id: string, token: string, mode?: string) =>
      get<{ project: Project; custom: Record<string, unknown>; option: { accuracy: number } }>(
        `/api/admin/project/${id}${mode ? `?mode=${mode}` : ''}`,
        token,
      );

    it.each([undefined, 'dev', 'app'])('answers the owner (mode %s)', async (mode) => {
      const r = await admin(project._id, owner.token, mode);
      expect(r.error).toBe(0);
      expect(r.data.project).toMatchObject({ _id: project._id, role: 'owner' });
      expect(r.data.option).toEqual({ accuracy: 2 });
    });

    it('a non-member → 1201; a common member → 1102; unknown → 1200', async () => {
      expect((await admin(project._id, stranger.token)).error).toBe(1201);
      const c = await admin(project._id, common.token);
      expect(c.error).toBe(1102);
      expect(c.status).toBe(403);
      expect((await admin('0'.repeat(24), owner.token)).error).toBe(1200);
      expect((await admin(project._id, owner.token, 'prod')).error).toBe(1000);
    });

    it('an admin member may; a disabled member may not', async () => {
      await t.app.database.db
        .updateTable('project_members')
        .set({ role_type: 'admin' })
        .where('project_id', '=', project._id)
        .where('user_id', '=', common.id)
        .execute();
      expect((await admin(project._id, common.token)).error).toBe(0);
      await t.app.database.db
        .updateTable('project_members')
        .set({ status: 'disabled' })
        .where('project_id', '=', project._id)
        .where('user_id', '=', common.id)
        .execute();
      expect((await admin(project._id, common.token)).error).toBe(1103);
      await t.app.database.db
        .updateTable('project_members')
        .set({ role_type: 'common', status: 'active' })
        .where('project_id', '=', project._id)
        .where('user_id', '=', common.id)
        .execute();
    });

    it('an expired project answers 104 in dev mode but not in app mode', async () => {
      const past = Date.now() - 1000;
      await t.app.database.db
        .updateTable('projects')
        .set({ expired_at: past })
        .where('id', '=', project._id)
        .execute();
      try {
        const dev = await admin(project._id, owner.token, 'dev');
        expect(dev.error).toBe(104);
        expect(dev.status).toBe(403);
        expect((await admin(project._id, owner.token)).error).toBe(104);
        const app = await admin(project._id, owner.token, 'app');
        expect(app.error).toBe(0);
        expect(app.data.project._limited).toBe(true);
        expect(app.data.project._expired).toBe(past);
        // Ordinary use of the app goes on.
        expect((await get(`/api/common/app/${project._id}/init`, common.token)).error).toBe(0);
        const list = await get<Project[]>('/api/common/project/list', owner.token);
        expect(list.data.find((p) => p._id === project._id)?._limited).toBe(true);
      } finally {
        await t.app.database.db
          .updateTable('projects')
          .set({ expired_at: null })
          .where('id', '=', project._id)
          .execute();
      }
    });

    it('the limited flag blocks dev mode too', async () => {
      await t.app.database.db
        .updateTable('projects')
        .set({ limited: 1 })
        .where('id', '=', project._id)
        .execute();
      try {
        expect((await admin(project._id, owner.token, 'dev')).error).toBe(104);
        expect((await admin(project._id, owner.token, 'app')).error).toBe(0);
      } finally {
        await t.app.database.db
          .updateTable('projects')
          .set({ limited: 0 })
          .where('id', '=', project._id)
          .execute();
      }
    });
  });

  describe('app and page init', () => {
    let page = '';
    let otherPage = '';
    beforeAll(async () => {
      page = await insertPage(t.app, project._id, 'Home');
      otherPage = await insertPage(t.app, other._id, 'Elsewhere');
    });

    it('answers project, custom, option and no page', async () => {
      const r = await get<{ project: Project; custom: object; option: object; page: null }>(
        `/api/common/app/${project._id}/init`,
        common.token,
      );
      expect(r.error).toBe(0);
      expect(r.data.project).toMatchObject({ _id: project._id, role: 'common' });
      expect(r.data.option).toEqual({ accuracy: 2 });
      expect(r.data.page).toBeNull();
    });

    it('answers the page to a manager; a common member needs it granted', async () => {
      const r = await get<{ page: { _id: string; name: string } }>(
        `/api/common/app/${project._id}/${page}/init`,
        owner.token,
      );
      expect(r.error).toBe(0);
      expect(r.data.page).toEqual({ _id: page, name: 'Home' });
      expect((await get(`/api/common/app/${project._id}/${page}/init`, common.token)).error).toBe(1102);
    });

    it('an unknown page or a page of another project → 1202', async () => {
      expect((await get(`/api/common/app/${project._id}/${'c'.repeat(24)}/init`, owner.token)).error).toBe(
        1202,
      );
      const r = await get(`/api/common/app/${project._id}/${otherPage}/init`, owner.token);
      expect(r.error).toBe(1202);
      expect(r.status).toBe(404);
      expect(r.raw).not.toContain('Elsewhere');
    });

    it('a non-member → 1201, also through another project’s page; no token → 1100', async () => {
      expect((await get(`/api/common/app/${project._id}/init`, stranger.token)).error).toBe(1201);
      expect((await get(`/api/common/app/${other._id}/${page}/init`, owner.token)).error).toBe(1201);
      expect((await get(`/api/common/app/${project._id}/init`)).error).toBe(1100);
      expect((await get(`/api/common/app/${'d'.repeat(24)}/init`, owner.token)).error).toBe(1200);
    });
  });

  describe('custom config', () => {
    const set = (body: unknown, token = owner.token, id = project._id) =>
      post<Record<string, unknown>>(`/api/admin/project/${id}/custom/set`, body, token);
    const read = (id = project._id) => get<Record<string, unknown>>(`/api/common/project/custom/${id}`);

    it('the owner sets it; keys merge', async () => {
      const a = await set({ name: 'Brand', logo: '/logo.png', code: 'console.log("setup")' });
      expect(a.error).toBe(0);
      const b = await set({ view: { pc: { theme: 'dark' } }, reg: { enable: true, role: null } });
      expect(b.error).toBe(0);
      expect(b.data).toMatchObject({ name: 'Brand', logo: '/logo.png', view: { pc: { theme: 'dark' } } });
      const admin = await get<{ custom: Record<string, unknown> }>(
        `/api/admin/project/${project._id}`,
        owner.token,
      );
      expect(admin.data.custom).toMatchObject({
        name: 'Brand',
        code: 'console.log("setup")',
        reg: { enable: true },
      });
      const init = await get<{ custom: Record<string, unknown> }>(
        `/api/common/app/${project._id}/init`,
        common.token,
      );
      expect(init.data.custom.code).toBe('console.log("setup")');
    });

    it('is read in public without a token, and without the setup code', async () => {
      const r = await read();
      expect(r.error).toBe(0);
      expect(r.data).toEqual({
        logo: '/logo.png',
        name: 'Brand',
        config: {},
        view: { pc: { theme: 'dark' } },
        reg: { enable: true },
      });
      expect(r.data).not.toHaveProperty('code');
      expect(r.raw).not.toContain('setup');
    });

    it('an unset config reads as defaults; unknown → 1200; bad id → 1000', async () => {
      expect((await read(other._id)).data).toEqual({
        logo: '',
        name: '',
        config: {},
        view: {},
        reg: { enable: false },
      });
      expect((await read('e'.repeat(24))).error).toBe(1200);
      expect((await read('nope')).error).toBe(1000);
    });

    it('only admins: common member → 1102, stranger → 1201, no token → 1100; nothing changed', async () => {
      const before = await snapshot(t.app);
      expect((await set({ name: 'Hijack' }, common.token)).error).toBe(1102);
      expect((await set({ name: 'Hijack' }, stranger.token)).error).toBe(1201);
      expect((await set({ name: 'Hijack' }, '')).error).toBe(1100);
      expect((await set({ name: 'Hijack' }, owner.token, other._id)).error).toBe(1201);
      expect(await snapshot(t.app)).toBe(before);
    });

    it.each([
      ['reg.enable not a boolean', { reg: { enable: 'yes' } }],
      ['reg.role not an id', { reg: { role: 'admin' } }],
      ['name not a string', { name: 42 }],
      ['name too long', { name: 'x'.repeat(129) }],
      ['view not an object', { view: 'dark' }],
      ['config.weixinLogin not a boolean', { config: { weixinLogin: 1 } }],
      ['body an array', [{ name: 'x' }]],
    ])('is validated: %s → 1000, nothing changed', async (_label, body) => {
      const before = await snapshot(t.app);
      const r = await set(body);
      expect(r.error).toBe(1000);
      expect(await snapshot(t.app)).toBe(before);
    });
  });
});
