/**
 * The feature switches enforced by the server (#22, helper admin4b): with a feature (or a part of
 * one) switched off for a project, the calls of its screen answer 2220 and change nothing, while the
 * same calls pass with it on; the switches themselves stay writable; a caller who may not manage the
 * project gets its usual refusal; a feature the installation does not offer is off; the debug call is
 * limited per user and project (2221).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_CALLS } from '../../src/server/admin/feature-calls.ts';
import { ADMIN_FEATURES } from '../../src/shared/admin/features.ts';
import {
  digest,
  seedApplication,
  seedMember,
  seedProject,
  seedRole,
  seedRoute,
  seedSchedule,
  seedUser,
} from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Req {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
}

interface Case {
  /** The flags switched off for the project. */
  off: string[];
  req(p: string): Promise<Req>;
}

describe.each(dialects)('feature switches enforced on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let stranger: { id: string; token: string };

  const setFlags = (p: string, value: Record<string, boolean>, token = owner.token) =>
    call(t.app, 'POST', `/api/app/share/${p}/config/project/features`, { token, body: { value } });
  const send = (r: Req, token = owner.token) =>
    call(t.app, r.method, r.url, { token, ...(r.body !== undefined ? { body: r.body } : {}) });
  /** Everything a refused call could have touched. */
  const state = async () => {
    const db = t.app.database.db;
    const [share, schedules, indexes] = await Promise.all([
      db
        .selectFrom('share_items')
        .select(['project_id', 'model', 'key', 'value'])
        .orderBy('project_id')
        .orderBy('model')
        .orderBy('key')
        .execute(),
      db.selectFrom('schedules').selectAll().orderBy('id').execute(),
      db.selectFrom('data_indexes').select(['id', 'pinned']).orderBy('id').execute(),
    ]);
    return `${await digest(t.app)}|${JSON.stringify([share, schedules, indexes])}`;
  };
  const entityOf = async (p: string) => {
    const made = await call<{ _id: string }>(t.app, 'POST', `/api/admin/project/${p}/entity/create`, {
      token: owner.token,
      body: { name: 'Items', code: `items${Math.random().toString(36).slice(2, 6)}` },
    });
    expect(made.error, made.raw).toBe(0);
    return made.data._id;
  };

  const cases: Record<string, Case> = {
    'user: the member list': {
      off: ['user'],
      req: async (p) => ({ method: 'POST', url: `/api/admin/user/${p}/list`, body: {} }),
    },
    'user.create: creating a sub-user': {
      off: ['user.create'],
      req: async (p) => ({
        method: 'POST',
        url: `/api/admin/user/${p}/create`,
        body: {
          role: await seedRole(t.app, p, 'common'),
          account: `sub${Date.now().toString(36)}`,
          pwd: 'abc12345',
          name: 'Sub',
        },
      }),
    },
    'user.kick: kicking a member': {
      off: ['user.kick'],
      req: async (p) => {
        const u = await seedUser(t.app);
        await seedMember(t.app, p, u.id, 'common', null);
        return { method: 'GET', url: `/api/admin/user/${p}/${u.id}/kick` };
      },
    },
    'user.change: moving a member to a role': {
      off: ['user.change'],
      req: async (p) => {
        const u = await seedUser(t.app);
        await seedMember(t.app, p, u.id, 'common', null);
        const role = { id: await seedRole(t.app, p, 'common') };
        return { method: 'POST', url: `/api/admin/user/${p}/${u.id}/update`, body: { role: role.id } };
      },
    },
    'user.public: activating the public role': {
      off: ['user.public'],
      req: async (p) => ({ method: 'GET', url: `/api/admin/auth/${p}/main/role/public` }),
    },
    'auth: creating a role': {
      off: ['auth'],
      req: async (p) => ({
        method: 'POST',
        url: `/api/admin/auth/${p}/main/role/create`,
        body: { name: 'R' },
      }),
    },
    'auth.grant: granting a role a menu entry': {
      off: ['auth.grant'],
      req: async (p) => {
        const role = { id: await seedRole(t.app, p, 'common') };
        const route = await seedRoute(t.app, p);
        return {
          method: 'POST',
          url: `/api/admin/auth/${p}/main/role/${role.id}/bind`,
          body: { route: [route] },
        };
      },
    },
    'auth.home: setting a role home': {
      off: ['auth.home'],
      req: async (p) => {
        const role = { id: await seedRole(t.app, p, 'common') };
        const route = await seedRoute(t.app, p);
        return {
          method: 'POST',
          url: `/api/admin/auth/${p}/main/role/${role.id}/update`,
          body: { home: { type: 'route', value: route } },
        };
      },
    },
    'auth.config: a role per-table setting': {
      off: ['auth.config'],
      req: async (p) => {
        const role = { id: await seedRole(t.app, p, 'common') };
        const entity = await entityOf(p);
        return {
          method: 'POST',
          url: `/api/admin/auth/${p}/main/role/${role.id}/table/${entity}/programs`,
          body: { programs: [] },
        };
      },
    },
    'auth.member: the applications to join a role': {
      off: ['auth.member'],
      req: async (p) => ({ method: 'GET', url: `/api/admin/user/${p}/apply/list` }),
    },
    'auth.member_handle: approving an application': {
      off: ['auth.member_handle'],
      req: async (p) => ({
        method: 'GET',
        url: `/api/admin/user/${p}/apply/${await seedApplication(t.app, p)}/approve`,
      }),
    },
    'menu: creating a menu entry': {
      off: ['menu'],
      req: async (p) => ({
        method: 'POST',
        url: `/api/admin/route/${p}/create`,
        body: { type: 'dir', name: 'Dir' },
      }),
    },
    'schedule: the schedule list': {
      off: ['schedule'],
      req: async (p) => ({ method: 'GET', url: `/api/admin/schedule/${p}/schedule` }),
    },
    'schedule: toggling a task': {
      off: ['schedule'],
      req: async (p) => ({
        method: 'GET',
        url: `/api/admin/schedule/${p}/${await seedSchedule(t.app, p)}/toggle`,
      }),
    },
    'system: usage': {
      off: ['system'],
      req: async (p) => ({ method: 'GET', url: `/api/admin/project/${p}/usage` }),
    },
    'system: project export': {
      off: ['system'],
      req: async (p) => ({ method: 'POST', url: `/api/app/share/${p}/exportProject`, body: {} }),
    },
    'i18n: the texts to translate': {
      off: ['i18n'],
      req: async (p) => ({ method: 'GET', url: `/api/admin/project/${p}/i18n/sources` }),
    },
    'i18n: saving a translation map': {
      off: ['i18n'],
      req: async (p) => ({
        method: 'POST',
        url: `/api/app/share/${p}/i18n/project/text.en`,
        body: { value: { a: 'Hello' } },
      }),
    },
    'share: the global config': {
      off: ['share'],
      req: async (p) => ({
        method: 'POST',
        url: `/api/app/share/${p}/config/project/global`,
        body: { value: { a: 1 } },
      }),
    },
    'share: an auto-numbering rule': {
      off: ['share'],
      req: async (p) => ({
        method: 'POST',
        url: `/api/app/share/${p}/config/project/increment.no`,
        body: { value: { name: 'No', prefix: 'A-', date: '', digits: 3, reset: 'never' } },
      }),
    },
    'selection: an option set': {
      off: ['selection'],
      req: async (p) => ({
        method: 'POST',
        url: `/api/app/share/${p}/selection/project/colours`,
        body: { value: { name: 'Colours', list: ['red', 'blue'] } },
      }),
    },
    'data: a table index': {
      off: ['data'],
      req: async (p) => ({
        method: 'POST',
        url: `/api/admin/data/${p}/${await entityOf(p)}/indexes`,
        body: {},
      }),
    },
    'data: a table setting': {
      off: ['data'],
      req: async (p) => ({
        method: 'POST',
        url: `/api/app/share/${p}/config/project/table.${await entityOf(p)}`,
        body: { value: { pageSize: 50 } },
      }),
    },
    'deploy: the installation facts': {
      off: ['deploy'],
      req: async (p) => ({ method: 'GET', url: `/api/admin/project/${p}/deploy` }),
    },
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      admin: {
        features: [...ADMIN_FEATURES],
        debug: false,
        debugSecret: 'ff-key',
        vendor: true,
        debugRate: 3,
      },
    });
    owner = await seedUser(t.app);
    stranger = await seedUser(t.app);
  }, 60_000);
  afterAll(() => t?.close());

  it('lists only real routes', () => {
    for (const c of FEATURE_CALLS) {
      const [method, url] = c.split(' ') as ['GET' | 'POST', string];
      expect(t.app.hasRoute({ method, url }), c).toBe(true);
    }
  });

  for (const [name, c] of Object.entries(cases)) {
    it(`${name}: refused with 2220 while off, nothing changed; allowed when on`, async () => {
      const p = (await seedProject(t.app, owner.id, { tier: 3 })).id;
      expect((await setFlags(p, Object.fromEntries(c.off.map((f) => [f, false])))).error).toBe(0);
      const req = await c.req(p);
      const before = await state();
      const refused = await send(req);
      expect(refused.error, refused.raw).toBe(2220);
      expect(refused.status).toBe(403);
      expect(await state()).toBe(before);
      // Someone who may not manage the project is refused as always, not told about the switches.
      const outsider = await send(req, stranger.token);
      expect(outsider.error).not.toBe(0);
      expect(outsider.error).not.toBe(2220);
      expect((await setFlags(p, {})).error).toBe(0);
      const allowed = await send(req);
      expect(allowed.error, allowed.raw).toBe(0);
    });
  }

  it('keeps the switches writable with every feature off', async () => {
    const p = (await seedProject(t.app, owner.id)).id;
    const all = Object.fromEntries(ADMIN_FEATURES.map((f) => [f, false]));
    expect((await setFlags(p, all)).error).toBe(0);
    const features = await call<{ flags: Record<string, boolean> }>(
      t.app,
      'GET',
      `/api/admin/project/${p}/features`,
      { token: owner.token },
    );
    expect(features.error).toBe(0);
    expect(Object.values(features.data.flags).every((on) => on === false)).toBe(true);
    expect((await setFlags(p, {})).error).toBe(0);
    // Reads other screens and the app need stay open: roles, menus, the shared store's reads.
    expect((await setFlags(p, all)).error).toBe(0);
    expect(
      (await call(t.app, 'GET', `/api/admin/auth/${p}/main/role/list`, { token: owner.token })).error,
    ).toBe(0);
    expect((await call(t.app, 'GET', `/api/admin/route/${p}/list`, { token: owner.token })).error).toBe(0);
    const fetched = await call(t.app, 'POST', `/api/app/share/${p}/fetch`, {
      token: owner.token,
      body: { config_project_features: { model: 'config', type: 'project', key: 'features' } },
    });
    expect(fetched.error, fetched.raw).toBe(0);
  });

  it('a feature the installation does not offer is off for every project', async () => {
    const t2 = await createTestApp(dialect, {
      admin: {
        features: ADMIN_FEATURES.filter((f) => f !== 'schedule'),
        debug: false,
        debugSecret: undefined,
        vendor: true,
      },
    });
    try {
      const o = await seedUser(t2.app);
      const p = (await seedProject(t2.app, o.id)).id;
      const r = await call(t2.app, 'GET', `/api/admin/schedule/${p}/schedule`, { token: o.token });
      expect(r.error).toBe(2220);
      // …and the project cannot switch it back on.
      await call(t2.app, 'POST', `/api/app/share/${p}/config/project/features`, {
        token: o.token,
        body: { value: { schedule: true } },
      });
      expect((await call(t2.app, 'GET', `/api/admin/schedule/${p}/schedule`, { token: o.token })).error).toBe(
        2220,
      );
    } finally {
      await t2.close();
    }
  });

  it('limits the debug call per user and project (2221)', async () => {
    const p = (await seedProject(t.app, owner.id)).id;
    const q = (await seedProject(t.app, owner.id)).id;
    const debug = (project: string, token = owner.token) =>
      call(t.app, 'POST', `/api/admin/project/${project}/debug`, { token, body: { secret: 'wrong' } });
    for (let i = 0; i < 3; i++) expect((await debug(p)).error).toBe(2101);
    const limited = await debug(p);
    expect(limited.error).toBe(2221);
    expect(limited.status).toBe(429);
    // Another project of the same user, and another manager of the same project, are counted apart.
    expect((await debug(q)).error).toBe(2101);
    const admin = await seedUser(t.app);
    await seedMember(t.app, p, admin.id, 'admin', null);
    expect((await debug(p, admin.token)).error).toBe(2101);
  });
});
