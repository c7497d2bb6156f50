/**
 * The permission matrix: every caller kind × every access-controlled endpoint × own project, other
 * project, a public project, an expired project, and own project with another project's ids in the
 * path or body. Each cell asserts allow or deny; denials must be coded (never 500) and change nothing.
 */
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debugSecret } from '../../src/server/admin/debug-secret.ts';
import { loadMeta } from '../../src/server/data/meta.ts';
import { saveRecord } from '../../src/server/data/records.ts';
import { rollupShape } from '../../src/server/data/rollup.ts';
import { createEntity, createField } from '../../src/server/data/schema-service.ts';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { createDataset, releaseDataset } from '../../src/server/dataset/service.ts';
import { createFlow, releaseFlow } from '../../src/server/program/service.ts';
import { ADMIN_FEATURES } from '../../src/shared/admin/features.ts';
import { newId } from '../../src/shared/id.ts';
import { normalizeOrThrow, normalizeSummaryOrThrow } from '../../src/shared/query/index.ts';
import { emptyPage } from '../fixtures/pages.ts';
import {
  digest,
  freshAccount,
  seedApplication,
  seedFlow,
  seedInvite,
  seedMember,
  seedPage,
  seedProject,
  seedRole,
  seedRoute,
  seedSchedule,
  seedUser,
} from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const MATRIX_DEBUG_KEY = 'matrix-debug-key';

const dialects = await testDialects();

type Standing = 'owner' | 'admin' | 'commonG' | 'commonN' | 'public' | 'none';
/** `joined`: any active member row of the project (owner, admin, common), expired or not; not public visitors. */
type Level = 'admin' | 'member' | 'ownerTarget' | 'app' | 'grant' | 'grantWrite' | 'hidden' | 'joined';
type ScopeName = 'own' | 'other' | 'public' | 'expired' | 'foreignIds';
type ProjectKey = 'A' | 'B' | 'P' | 'E';

interface Fx {
  key: ProjectKey;
  pid: string;
  ownerId: string;
  roleId: string;
  dirId: string;
  grantedRoute: string;
  hiddenRoute: string;
  grantedPage: string;
  hiddenPage: string;
  grantedEntity: string;
  hiddenEntity: string;
  grantedProgram: string;
  hiddenProgram: string;
  grantedDataset: string;
  hiddenDataset: string;
}

interface Req {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  /** A binary body (file uploads), sent as application/octet-stream instead of `body`. */
  file?: Buffer;
  /** Send `file` as this multipart/form-data part instead (with the file name `a.png`). */
  part?: string;
  /** The answer is a file download. */
  export?: boolean;
}

interface Ep {
  name: string;
  level: Level;
  mutating: boolean;
  /** Takes ids from another fixture (so the foreign-ids scope applies). */
  ids: boolean;
  build(app: FastifyInstance, f: Fx, g: Fx): Promise<Req>;
  /** Allowed answer check beyond `error: 0`. */
  allowed?(data: unknown, f: Fx): boolean;
  cleanup?(app: FastifyInstance): Promise<void>;
  /** Runs on SQLite only (rollups are SQLite's only: data/rollup.ts). */
  sqliteOnly?: boolean;
}

/**
 * A builder's index on the fixture's granted table (`name`, descending: not the one the index-create
 * endpoint makes), built once and kept until a cell drops it; answers its id and whether it is pinned.
 */
async function seedIndex(a: FastifyInstance, f: Fx): Promise<{ id: string; pinned: boolean }> {
  const have = await a.database.db
    .selectFrom('data_indexes')
    .select(['id', 'pinned'])
    .where('entity_id', '=', f.grantedEntity)
    .where('shape', '=', 'm|name:desc')
    .executeTakeFirst();
  if (have) return { id: have.id, pinned: Number(have.pinned) === 1 };
  const made = await a.autoIndex.create(await loadMeta(a.database.db, f.pid, f.grantedEntity), [
    { field: 'name', order: 'desc' },
  ]);
  if (made === 'fields' || made === 'exists' || made === 'limit') throw new Error(`index not built: ${made}`);
  return { id: made, pinned: true };
}

/**
 * A rollup of the fixture's granted table (count by `name`), built for real (table, fill, triggers)
 * once and kept until a cell drops it; answers its id and whether it is pinned.
 */
async function seedRollup(a: FastifyInstance, f: Fx): Promise<{ id: string; pinned: boolean }> {
  const { db } = a.database;
  const have = await db
    .selectFrom('data_rollups')
    .select(['id', 'pinned'])
    .where('entity_id', '=', f.grantedEntity)
    .executeTakeFirst();
  if (have) return { id: have.id, pinned: Number(have.pinned) === 1 };
  const meta = await loadMeta(db, f.pid, f.grantedEntity);
  const spec = normalizeSummaryOrThrow({ group: ['name'], metrics: [{ fn: 'count' }] }, meta.queryTypes);
  const all = normalizeOrThrow({}, { now: Date.now(), user: null, fields: meta.queryTypes });
  const id = await a.autoIndex.rollups.build(meta, rollupShape(meta, all, spec)!, 0);
  if (!id) throw new Error('rollup not built');
  return { id, pinned: false };
}

/** A record in the fixture's granted table (list updates and removes need one). */
async function seedRecord(a: FastifyInstance, f: Fx): Promise<string> {
  const meta = await loadMeta(a.database.db, f.pid, f.grantedEntity);
  return String((await saveRecord(a.database.db, meta, { name: 'seeded' }))._id);
}

const ACTORS = [
  'ownerA',
  'adminA',
  'commonG',
  'commonN',
  'nonMember',
  'otherAdmin',
  'anon',
  'child',
  'banned',
] as const;
type ActorName = (typeof ACTORS)[number];

const STANDING: Record<ActorName, Record<ProjectKey, Standing>> = {
  ownerA: { A: 'owner', B: 'none', P: 'owner', E: 'owner' },
  adminA: { A: 'admin', B: 'none', P: 'public', E: 'none' },
  commonG: { A: 'commonG', B: 'commonN', P: 'public', E: 'none' },
  commonN: { A: 'commonN', B: 'none', P: 'public', E: 'none' },
  nonMember: { A: 'none', B: 'none', P: 'public', E: 'none' },
  otherAdmin: { A: 'none', B: 'owner', P: 'public', E: 'none' },
  anon: { A: 'none', B: 'none', P: 'public', E: 'none' },
  // Acts as commonG, but only inside project A (the child token's project).
  child: { A: 'commonG', B: 'none', P: 'none', E: 'none' },
  // Banned in A only.
  banned: { A: 'none', B: 'none', P: 'public', E: 'none' },
};

function expectedAllow(level: Level, st: Standing, expired: boolean): boolean {
  const manager = st === 'owner' || st === 'admin';
  switch (level) {
    case 'admin':
    case 'member':
      return manager && !expired;
    case 'ownerTarget':
      return false;
    case 'app':
      return st !== 'none';
    case 'grant':
    case 'grantWrite':
      return manager || st === 'commonG' || st === 'public';
    case 'hidden':
      return manager;
    case 'joined':
      return manager || st === 'commonG' || st === 'commonN';
  }
}

function containsId(tree: unknown, id: string): boolean {
  if (!Array.isArray(tree)) return false;
  return tree.some((n: { _id?: string; _children?: unknown }) => n._id === id || containsId(n._children, id));
}

async function freshTarget(app: FastifyInstance, f: Fx): Promise<string> {
  const u = await seedUser(app, { parentId: f.ownerId });
  await seedMember(app, f.pid, u.id, 'common', f.roleId);
  return u.id;
}

const adminBase = (f: Fx) => `/api/admin/auth/${f.pid}/main/role`;

const ENDPOINTS: Ep[] = [
  // The playground's sample apps: members of the system holding one learn where it opens.
  {
    name: 'playground open',
    level: 'joined',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/common/playground/kanban?project=${f.pid}` }),
    allowed: (d, f) =>
      (d as { project?: string; page?: string }).project === f.pid &&
      (d as { page?: string }).page === f.grantedPage,
  },
  // Existing project endpoints.
  {
    name: 'admin project get',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/project/${f.pid}?mode=dev` }),
  },
  {
    name: 'custom/set',
    level: 'admin',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/admin/project/${f.pid}/custom/set`,
      body: { name: 'n' },
    }),
  },
  {
    name: 'app init',
    level: 'app',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/common/app/${f.pid}/init` }),
  },
  {
    name: 'app page init (granted page)',
    level: 'grant',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({ method: 'GET', url: `/api/common/app/${f.pid}/${g.grantedPage}/init` }),
  },
  {
    name: 'app page init (ungranted page)',
    level: 'hidden',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({ method: 'GET', url: `/api/common/app/${f.pid}/${g.hiddenPage}/init` }),
  },
  {
    name: 'print prepare (granted page)',
    level: 'grant',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/util/${f.pid}/print/prepare`,
      body: { page: g.grantedPage, print: { title: 't', data: [{ a: 1 }] } },
    }),
  },
  {
    name: 'print prepare (ungranted page)',
    level: 'hidden',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/util/${f.pid}/print/prepare`,
      body: { page: g.hiddenPage },
    }),
  },
  {
    name: 'sheet print, client mode (granted page)',
    level: 'grant',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/util/${f.pid}/sheet/print`,
      body: { pages: [{ page: g.grantedPage }], option: { mode: 'client' } },
    }),
  },
  {
    name: 'sheet print, client mode (ungranted page)',
    level: 'hidden',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/util/${f.pid}/sheet/print`,
      body: { pages: [{ page: '' }, { page: g.hiddenPage }], option: { mode: 'client' } },
    }),
  },
  // Roles.
  {
    name: 'role list',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `${adminBase(f)}/list` }),
  },
  {
    name: 'role create',
    level: 'admin',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({ method: 'POST', url: `${adminBase(f)}/create`, body: { name: 'Clerk' } }),
  },
  {
    name: 'role update',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `${adminBase(f)}/${await seedRole(a, g.pid, 'common')}/update`,
      body: { name: 'Renamed', type: 'admin' },
    }),
  },
  {
    name: 'role remove',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'GET',
      url: `${adminBase(f)}/${await seedRole(a, g.pid, 'common')}/remove`,
    }),
  },
  {
    name: 'role public',
    level: 'admin',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `${adminBase(f)}/public` }),
    // Activating the public role on A, B or E would change who every later cell is: undo it.
    cleanup: async (a) => {
      const db = a.database.db;
      const open = await db.selectFrom('projects').select('id').where('auth', '=', 'public').execute();
      for (const p of open) {
        if (p.id === fixtures.get(a)?.P.pid) continue;
        await db.deleteFrom('roles').where('project_id', '=', p.id).where('type', '=', 'public').execute();
        await db.updateTable('projects').set({ auth: 'admin' }).where('id', '=', p.id).execute();
      }
    },
  },
  {
    name: 'role bind (role id)',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `${adminBase(f)}/${await seedRole(a, g.pid, 'common')}/bind`,
      body: { program: ['prog1'] },
    }),
  },
  {
    name: 'role bind (menu and page ids in body)',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `${adminBase(f)}/${await seedRole(a, f.pid, 'common')}/bind`,
      body: {
        route: [g.grantedRoute],
        page: [g.grantedPage],
        home: { type: 'route', value: g.grantedRoute },
      },
    }),
  },
  // Members.
  {
    name: 'member list',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'POST', url: `/api/admin/user/${f.pid}/list`, body: {} }),
  },
  {
    name: 'member children',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/user/${f.pid}/children` }),
  },
  {
    name: 'member create',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/user/${f.pid}/create`,
      body: { role: g.roleId, account: freshAccount('c'), pwd: 'abc12345', name: 'Sub' },
    }),
  },
  {
    name: 'member bind',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/user/${f.pid}/bind`,
      body: { role: g.roleId, account: (await seedUser(a)).account },
    }),
  },
  ...(['kick', 'ban', 'active', 'remove', 'token'] as const).map(
    (op): Ep => ({
      name: `member ${op}`,
      level: 'member',
      mutating: true,
      ids: true,
      build: async (a, f, g) => ({
        method: 'GET',
        url: `/api/admin/user/${f.pid}/${await freshTarget(a, g)}/${op}`,
      }),
    }),
  ),
  {
    name: 'member update (member id)',
    level: 'member',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/user/${f.pid}/${await freshTarget(a, g)}/update`,
      body: { name: 'Renamed', pwd: 'xyz98765' },
    }),
  },
  {
    name: 'member update (role id in body)',
    level: 'member',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/user/${f.pid}/${await freshTarget(a, f)}/update`,
      body: { role: g.roleId },
    }),
  },
  ...(['kick', 'ban', 'remove'] as const).map(
    (op): Ep => ({
      name: `member ${op} the owner`,
      level: 'ownerTarget',
      mutating: true,
      ids: false,
      build: async (_a, f) => ({ method: 'GET', url: `/api/admin/user/${f.pid}/${f.ownerId}/${op}` }),
    }),
  ),
  {
    name: 'invite create',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/user/${f.pid}/invite`,
      body: { role: g.roleId },
    }),
  },
  {
    name: 'invite list',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/user/${f.pid}/invite/list` }),
  },
  {
    name: 'invite close',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'GET',
      url: `/api/admin/user/${f.pid}/invite/${await seedInvite(a, g.pid, g.ownerId)}/close`,
    }),
  },
  // Project export/import and usage (builders).
  {
    name: 'export project',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'POST', url: `/api/app/share/${f.pid}/exportProject`, body: {} }),
  },
  {
    // importReplaceProject shares its access check; replacing would empty the fixture for later actors.
    name: 'project import',
    level: 'admin',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/share/${f.pid}/importProject`,
      body: {
        package: {
          format: 1,
          app: 'lowcode-builder',
          exportedAt: 0,
          name: 'x',
          home: '',
          custom: null,
          modules: [{ id: newId(), name: 'Imported', sort: 0 }],
        },
      },
    }),
  },
  {
    name: 'project usage',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/project/${f.pid}/usage` }),
  },
  {
    name: 'admin features',
    // Managers only, also while the project is expired (like deploy facts).
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/project/${f.pid}/features` }),
  },
  {
    name: 'i18n sources',
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/project/${f.pid}/i18n/sources` }),
  },
  {
    name: 'admin debug mode',
    level: 'hidden',
    mutating: false,
    ids: false,
    // The secret of this host (inject's `localhost`) and project under the matrix's DEBUG_SECRET.
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/admin/project/${f.pid}/debug`,
      body: { secret: debugSecret(MATRIX_DEBUG_KEY, 'localhost', f.pid) },
    }),
  },
  {
    name: 'deploy facts',
    // Managers only, also while the project is expired (like the share store's other project items).
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/project/${f.pid}/deploy` }),
  },
  {
    name: 'option set save',
    // Managers only, also while the project is expired (like the share store's other project items).
    level: 'hidden',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/share/${f.pid}/selection/project/m${Math.random().toString(36).slice(2, 8)}`,
      body: { value: { name: 'Set', list: ['a', 'b'] } },
    }),
  },
  {
    name: 'numbering rule save',
    // Managers only, also while the project is expired (like the share store's other project items).
    level: 'hidden',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/share/${f.pid}/config/project/increment.m${Math.random().toString(36).slice(2, 8)}`,
      body: { value: { name: 'No', prefix: 'A-', date: '', digits: 3, reset: 'never' } },
    }),
  },
  // Role applications (role option apply), decided by managers.
  {
    name: 'role application list',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/user/${f.pid}/apply/list` }),
  },
  ...(['approve', 'reject'] as const).map(
    (op): Ep => ({
      name: `role application ${op}`,
      level: 'admin',
      mutating: true,
      ids: true,
      build: async (a, f, g) => ({
        method: 'GET',
        url: `/api/admin/user/${f.pid}/apply/${await seedApplication(a, g.pid)}/${op}`,
      }),
    }),
  ),
  // Menus.
  {
    name: 'route list (admin)',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/route/${f.pid}/list` }),
  },
  {
    name: 'route create',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/route/${f.pid}/create`,
      body: { type: 'table', name: 'Orders', parent: g.dirId },
    }),
  },
  {
    name: 'route update (route id)',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/route/${f.pid}/${await seedRoute(a, g.pid)}/update`,
      body: { name: 'Renamed' },
    }),
  },
  {
    name: 'route update (parent id in body)',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/route/${f.pid}/${await seedRoute(a, f.pid)}/update`,
      body: { parent: g.dirId },
    }),
  },
  {
    name: 'route sort',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/route/${f.pid}/sort`,
      body: { routes: [g.hiddenRoute, g.grantedRoute, g.dirId] },
    }),
  },
  {
    name: 'route bind',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/route/${f.pid}/${await seedRoute(a, g.pid)}/bind`,
      body: { programs: ['prog1'] },
    }),
  },
  {
    name: 'route remove',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'GET',
      url: `/api/admin/route/${f.pid}/${await seedRoute(a, g.pid)}/remove`,
    }),
  },
  {
    name: 'app menu list shows the granted entry',
    level: 'grant',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/app/rt/${f.pid}/list` }),
    allowed: (data, f) => containsId(data, f.grantedRoute),
  },
  // Data model and records.
  {
    name: 'data model: entity list',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/project/${f.pid}/entity` }),
  },
  {
    name: 'data model: entity create',
    level: 'admin',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/admin/project/${f.pid}/entity/create`,
      body: { name: 'New' },
    }),
  },
  {
    name: 'data model: fields of a table',
    level: 'admin',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'GET',
      url: `/api/admin/project/${f.pid}/${g.grantedEntity}/field`,
    }),
  },
  {
    name: 'admin data query',
    level: 'admin',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/data/${f.pid}/${g.grantedEntity}/query`,
      body: {},
    }),
  },
  {
    name: 'admin data save',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/data/${f.pid}/${g.grantedEntity}/save`,
      body: { name: 'row' },
    }),
  },
  {
    name: 'admin managed indexes list',
    level: 'admin',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/data/${f.pid}/${g.grantedEntity}/indexes`,
      body: {},
    }),
  },
  {
    // A builder's index on a chosen field: built for real, dropped again after each cell.
    name: 'admin index create on chosen fields',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/data/${f.pid}/${g.grantedEntity}/indexes/create`,
      body: { fields: [{ field: 'name' }] },
    }),
    cleanup: async (a) => {
      const made = await a.database.db
        .selectFrom('data_indexes')
        .select('id')
        .where('shape', '=', 'm|name')
        .execute();
      for (const r of made) await a.autoIndex.drop(r.id);
    },
  },
  // A managed index and a rollup of the table (ids of `g`'s table in `f`'s path): pinned the other
  // way than they are (so a refused pin that went through shows), and dropped.
  {
    name: 'admin index pin',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => {
      const ix = await seedIndex(a, g);
      return {
        method: 'POST',
        url: `/api/admin/data/${f.pid}/${g.grantedEntity}/indexes/${ix.id}/pin`,
        body: { pinned: !ix.pinned },
      };
    },
    allowed: (d) => typeof (d as { pinned?: unknown }).pinned === 'boolean',
  },
  {
    name: 'admin index remove',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/data/${f.pid}/${g.grantedEntity}/indexes/${(await seedIndex(a, g)).id}/remove`,
      body: {},
    }),
  },
  {
    name: 'admin rollup pin',
    level: 'admin',
    mutating: true,
    ids: true,
    sqliteOnly: true,
    build: async (a, f, g) => {
      const rx = await seedRollup(a, g);
      return {
        method: 'POST',
        url: `/api/admin/data/${f.pid}/${g.grantedEntity}/indexes/rollups/${rx.id}/pin`,
        body: { pinned: !rx.pinned },
      };
    },
    allowed: (d) => (d as { kind?: string }).kind === 'rollup',
  },
  {
    name: 'admin rollup remove',
    level: 'admin',
    mutating: true,
    ids: true,
    sqliteOnly: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/data/${f.pid}/${g.grantedEntity}/indexes/rollups/${(await seedRollup(a, g)).id}/remove`,
      body: {},
    }),
  },
  {
    name: 'role table settings (role and table ids)',
    level: 'admin',
    mutating: false,
    ids: true,
    build: async (a, f, g) => ({
      method: 'GET',
      url: `${adminBase(f)}/${await seedRole(a, g.pid, 'common')}/table/${g.grantedEntity}`,
    }),
  },
  {
    name: 'role table allowed programs (role, table and program ids)',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `${adminBase(f)}/${await seedRole(a, g.pid, 'common')}/table/${g.grantedEntity}/programs`,
      body: { programs: [g.grantedProgram] },
    }),
  },
  {
    name: 'role default filter of a table',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/view/${f.pid}/${g.grantedEntity}/role-filter`,
      body: {
        role: await seedRole(a, g.pid, 'common'),
        filter: { conditions: [{ field: 'name', opt: 'eq', value: 'x' }], match: 'and' },
      },
    }),
  },
  {
    name: 'admin data save of a list',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/data/${f.pid}/${g.grantedEntity}/save`,
      body: [{ name: 'row 1' }, { name: 'row 2' }],
    }),
  },
  {
    name: 'admin data update of a list',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/data/${f.pid}/${g.grantedEntity}/update`,
      body: [{ _id: await seedRecord(a, g), name: 'renamed' }],
    }),
  },
  {
    name: 'admin data remove of a list',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/admin/data/${f.pid}/${g.grantedEntity}/remove`,
      body: [await seedRecord(a, g)],
    }),
  },
  {
    name: 'app data save of a list into a granted table',
    level: 'grantWrite',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/simple/${f.pid}/${g.grantedEntity}/save`,
      body: [{ name: 'row 1' }, { name: 'row 2' }],
    }),
  },
  {
    name: 'app data update of a list in a granted table',
    level: 'grantWrite',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/app/simple/${f.pid}/${g.grantedEntity}/update`,
      body: [{ _id: await seedRecord(a, g), name: 'renamed' }],
    }),
  },
  {
    name: 'app data remove of a list in a granted table',
    level: 'grantWrite',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/app/simple/${f.pid}/${g.grantedEntity}/remove`,
      body: [await seedRecord(a, g)],
    }),
  },
  {
    name: 'app data query of a granted table',
    level: 'grant',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/simple/${f.pid}/${g.grantedEntity}/query`,
      body: {},
    }),
  },
  {
    name: 'app dataset show of a granted dataset',
    level: 'grant',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/ds/${f.pid}/${g.grantedDataset}/show`,
      body: { page: { index: 1, size: 5 } },
    }),
  },
  {
    name: 'app dataset show of an ungranted dataset',
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/ds/${f.pid}/${f.hiddenDataset}/show`,
      body: {},
    }),
  },
  {
    name: 'app dataset statistics of a granted dataset',
    level: 'grant',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/ds/${f.pid}/${g.grantedDataset}/summary`,
      body: { summary: { metrics: [{ fn: 'count', as: 'n' }] } },
    }),
  },
  {
    name: 'app dataset statistics of an ungranted dataset',
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/ds/${f.pid}/${f.hiddenDataset}/summary`,
      body: { summary: { metrics: [{ fn: 'count', as: 'n' }] } },
    }),
  },
  {
    name: 'builder dataset preview',
    level: 'admin',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/dataset/${f.pid}/${g.grantedDataset}/preview`,
      body: {},
    }),
  },
  {
    name: 'builder dataset list',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/dataset/${f.pid}/list` }),
  },
  {
    name: 'builder dataset create',
    level: 'admin',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/admin/dataset/${f.pid}/create`,
      body: { name: 'N' },
    }),
  },
  {
    name: 'builder dataset update',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/dataset/${f.pid}/${g.hiddenDataset}/update`,
      body: { name: 'Renamed' },
    }),
  },
  {
    name: 'builder dataset release',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/dataset/${f.pid}/${g.hiddenDataset}/release`,
      body: {},
    }),
  },
  {
    name: 'builder dataset versions',
    level: 'admin',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'GET',
      url: `/api/admin/dataset/${f.pid}/${g.grantedDataset}/versions`,
    }),
  },
  {
    name: 'builder dataset restore',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/dataset/${f.pid}/${g.hiddenDataset}/restore`,
      body: { version: 1 },
    }),
  },
  {
    name: 'app data query of an ungranted table',
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/simple/${f.pid}/${f.hiddenEntity}/query`,
      body: {},
    }),
  },
  {
    name: 'app table search (filter) of a granted table',
    level: 'grant',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/d/${f.pid}/${g.grantedEntity}/filter`,
      body: { value: 'x' },
    }),
  },
  {
    name: 'app xlsx import into a granted table',
    level: 'grantWrite',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/d/${f.pid}/${g.grantedEntity}/import`,
      file: await xlsxFile(),
    }),
  },
  {
    name: 'upload a file for a granted table',
    level: 'grantWrite',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/util/${f.pid}/upload?type=file&name=a.txt&entity=${g.grantedEntity}`,
      file: Buffer.from('hello'),
    }),
  },
  {
    name: 'rich-text helper config',
    level: 'grantWrite',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/app/util/${f.pid}/ueditor?action=config` }),
  },
  {
    name: 'rich-text helper image list',
    level: 'grantWrite',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/app/util/${f.pid}/ueditor?action=listimage` }),
  },
  {
    name: 'rich-text helper image upload',
    level: 'grantWrite',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/util/${f.pid}/ueditor?action=uploadimage`,
      file: grayPng(4, 4, () => 60),
      part: 'upfile',
    }),
  },
  {
    name: 'upload a file for an ungranted table',
    level: 'hidden',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/util/${f.pid}/upload?type=file&name=a.txt&entity=${f.hiddenEntity}`,
      file: Buffer.from('hello'),
    }),
  },
  {
    name: 'app xlsx import into an ungranted table',
    level: 'hidden',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/d/${f.pid}/${f.hiddenEntity}/import`,
      file: await xlsxFile(),
    }),
  },
  {
    name: 'app xlsx export of a granted table',
    level: 'grant',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/d/${f.pid}/${g.grantedEntity}/export`,
      body: { mode: 'all' },
      export: true,
    }),
  },
  {
    name: 'app xlsx export of an ungranted table',
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/d/${f.pid}/${f.hiddenEntity}/export`,
      body: { mode: 'page' },
      export: true,
    }),
  },
  {
    name: 'app table fields (meta) of a granted table',
    level: 'grant',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/app/simple/${f.pid}/${g.grantedEntity}/meta`,
      body: {},
    }),
  },
  {
    name: 'app table fields (meta) of an ungranted table',
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({
      method: 'POST',
      url: `/api/app/simple/${f.pid}/${f.hiddenEntity}/meta`,
      body: {},
    }),
  },
  // Pages.
  {
    name: 'builder page list',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/page/${f.pid}/` }),
  },
  {
    name: 'builder page create',
    level: 'admin',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({ method: 'POST', url: `/api/admin/page/${f.pid}/create`, body: { name: 'P' } }),
  },
  {
    name: 'builder page publish',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/page/${f.pid}/${g.grantedPage}/publish`,
      body: { note: 'n' },
    }),
  },
  {
    name: 'app page list',
    level: 'app',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/app/page/${f.pid}/` }),
  },
  {
    name: 'page draft preview',
    level: 'hidden',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({ method: 'GET', url: `/api/app/page/${f.pid}/${g.grantedPage}?preview=1` }),
  },
  {
    name: 'app menu list shows an ungranted entry',
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/app/rt/${f.pid}/list` }),
    allowed: (data, f) => containsId(data, f.hiddenRoute),
  },
  // Programs.
  {
    name: 'builder flow list',
    level: 'admin',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/admin/project/${f.pid}/flow` }),
  },
  {
    name: 'builder flow create',
    level: 'admin',
    mutating: true,
    ids: false,
    build: async (_a, f) => ({ method: 'POST', url: `/api/admin/flow/${f.pid}/create`, body: { name: 'N' } }),
  },
  {
    name: 'builder flow update',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/flow/${f.pid}/${g.hiddenProgram}/update`,
      body: { name: 'Renamed' },
    }),
  },
  {
    name: 'builder flow test run',
    level: 'admin',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/flow/${f.pid}/${g.grantedProgram}/test`,
      body: {},
    }),
  },
  {
    name: 'builder flow release',
    level: 'admin',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/admin/flow/${f.pid}/${g.hiddenProgram}/release`,
      body: {},
    }),
  },
  {
    name: 'builder flow run log',
    level: 'admin',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({ method: 'GET', url: `/api/admin/flow/${f.pid}/${g.grantedProgram}/runs` }),
  },
  {
    name: 'program init lists the granted program',
    level: 'grant',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/common/program/${f.pid}/init` }),
    allowed: (data, f) =>
      Array.isArray(data) && data.some((x: { _id?: string }) => x._id === f.grantedProgram),
  },
  {
    name: 'program init lists an ungranted program',
    level: 'hidden',
    mutating: false,
    ids: false,
    build: async (_a, f) => ({ method: 'GET', url: `/api/common/program/${f.pid}/init` }),
    allowed: (data, f) =>
      Array.isArray(data) && data.some((x: { _id?: string }) => x._id === f.hiddenProgram),
  },
  {
    name: 'program prepare (granted)',
    level: 'grant',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/common/program/${f.pid}/prepare/${g.grantedProgram}/k`,
      body: {},
    }),
  },
  {
    // Batched prepare: answers error 0 with each program's own answer; allowed = the program came back.
    name: 'program prepare batch (granted)',
    level: 'grant',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/common/program/${f.pid}/prepare/__/k`,
      body: { names: [g.grantedProgram] },
    }),
    allowed: (data) =>
      Object.values((data as Record<string, { _id?: unknown }> | null) ?? {}).some(
        (v) => typeof v?._id === 'string',
      ),
  },
  {
    name: 'program prepare batch (ungranted)',
    level: 'hidden',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/common/program/${f.pid}/prepare/__/k`,
      body: { names: [g.hiddenProgram] },
    }),
    allowed: (data) =>
      Object.values((data as Record<string, { _id?: unknown }> | null) ?? {}).some(
        (v) => typeof v?._id === 'string',
      ),
  },
  {
    // A bulk run over selected records: allowed = at least one record's run went through.
    name: 'program bulk exec (granted)',
    level: 'grantWrite',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/common/program/${f.pid}/exec/${g.grantedProgram}/k`,
      body: { records: [await seedRecord(a, g)] },
    }),
    allowed: (data) => Number((data as { ok?: unknown } | null)?.ok) > 0,
  },
  {
    name: 'program bulk exec (ungranted)',
    level: 'hidden',
    mutating: true,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/common/program/${f.pid}/exec/${g.hiddenProgram}/k`,
      body: { records: [await seedRecord(a, g)] },
    }),
    allowed: (data) => Number((data as { ok?: unknown } | null)?.ok) > 0,
  },
  {
    name: 'program bulk display (granted)',
    level: 'grantWrite',
    mutating: false,
    ids: true,
    build: async (a, f, g) => ({
      method: 'POST',
      url: `/api/common/program/${f.pid}/display/${g.grantedProgram}/k`,
      body: { records: [await seedRecord(a, g)] },
    }),
    allowed: (data) => Number((data as { ok?: unknown } | null)?.ok) > 0,
  },
  {
    name: 'program display (granted)',
    level: 'grantWrite',
    mutating: false,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/common/program/${f.pid}/display/${g.grantedProgram}/k`,
      body: {},
    }),
  },
  {
    name: 'program exec (granted)',
    level: 'grantWrite',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/common/program/${f.pid}/exec/${g.grantedProgram}/k`,
      body: {},
    }),
  },
  {
    name: 'program exec (ungranted)',
    level: 'hidden',
    mutating: true,
    ids: true,
    build: async (_a, f, g) => ({
      method: 'POST',
      url: `/api/common/program/${f.pid}/exec/${g.hiddenProgram}/k`,
      body: {},
    }),
  },
  // Scheduled tasks: builders only; another project's program or task is not found.
  ...(
    [
      [
        'set',
        'POST',
        false,
        true,
        async (a, _f, g) => ({
          url: '/set',
          body: { flow: await seedFlow(a, g.pid), cron: '0 0 9 * * ? *', name: 'S' },
        }),
      ],
      ['list', 'GET', false, false, async () => ({ url: '/schedule' })],
      ['jobs', 'GET', false, false, async () => ({ url: '/job' })],
      [
        'update',
        'POST',
        true,
        true,
        async (a, _f, g) => ({ url: `/${await seedSchedule(a, g.pid)}/update`, body: { name: 'R' } }),
      ],
      ['toggle', 'GET', true, true, async (a, _f, g) => ({ url: `/${await seedSchedule(a, g.pid)}/toggle` })],
      ['remove', 'GET', true, true, async (a, _f, g) => ({ url: `/${await seedSchedule(a, g.pid)}/remove` })],
      [
        'log',
        'POST',
        false,
        true,
        async (a, _f, g) => ({ url: `/${await seedSchedule(a, g.pid)}/log`, body: {} }),
      ],
    ] as [
      string,
      'GET' | 'POST',
      boolean,
      boolean,
      (a: FastifyInstance, f: Fx, g: Fx) => Promise<{ url: string; body?: unknown }>,
    ][]
  ).map(
    ([name, method, seeded, ids, make]): Ep => ({
      name: `schedule ${name}`,
      level: 'admin',
      mutating: name !== 'list' && name !== 'jobs' && name !== 'log',
      ids,
      build: async (a, f, g) => {
        const r = await make(a, f, g);
        return { method, url: `/api/admin/schedule/${f.pid}${r.url}`, ...(r.body ? { body: r.body } : {}) };
      },
      // Tasks seeded or created by a cell are dropped: the tier quota stays free for the next cell.
      cleanup:
        seeded || name === 'set'
          ? async (a) => void (await a.database.db.deleteFrom('schedules').execute())
          : undefined,
    }),
  ),
];

/** Send a file upload, or read a file download (an xlsx answer counts as `error: 0`). */
async function callFile(app: FastifyInstance, req: Req, token: string | undefined) {
  const boundary = '----lcMatrixPart';
  const payload = req.part
    ? Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${req.part}"; filename="a.png"\r\n` +
            'Content-Type: image/png\r\n\r\n',
        ),
        req.file ?? Buffer.alloc(0),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
    : req.file;
  const res = await app.inject({
    method: req.method,
    url: req.url,
    headers: {
      'content-type': req.part ? `multipart/form-data; boundary=${boundary}` : 'application/octet-stream',
      ...(token ? { token } : {}),
    },
    payload,
  });
  const json = JSON.parse(res.body) as { error: number; data?: unknown; msg?: string };
  return { status: res.statusCode, error: json.error, data: json.data, msg: json.msg, raw: res.body };
}

async function callExport(app: FastifyInstance, req: Req, token: string | undefined) {
  const res = await app.inject({
    method: 'POST',
    url: req.url,
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    payload: JSON.stringify(req.body ?? {}),
  });
  if (String(res.headers['content-type']).includes('spreadsheetml')) {
    return {
      status: res.statusCode,
      error: res.rawPayload.readUInt32LE(0) === 0x04034b50 ? 0 : -1,
      data: null,
      raw: '',
    };
  }
  const json = JSON.parse(res.body) as { error: number; data?: unknown; msg?: string };
  return { status: res.statusCode, error: json.error, data: json.data, msg: json.msg, raw: res.body };
}

/** A one-row xlsx for the import endpoint. */
let importFile: Buffer | null = null;
async function xlsxFile(): Promise<Buffer> {
  if (!importFile) {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('S');
    ws.addRow(['Name']);
    ws.addRow(['imported']);
    importFile = Buffer.from(await wb.xlsx.writeBuffer());
  }
  return importFile;
}

let entitySeq = 0;
/** A builder table with one text field `name`. */
async function seedEntity(app: FastifyInstance, projectId: string): Promise<string> {
  const { db, dialect } = app.database;
  const e = await createEntity(db, projectId, { name: `T${++entitySeq}`, code: `t${entitySeq}` });
  await createField(db, dialect, e, { name: 'Name', field: 'name', type: 'string' });
  return e.id;
}

/**
 * A released program on the table that writes one row to it (so a wrongly allowed run shows in the
 * digest); on a table, it also runs over selected records (`records`).
 */
async function seedProgram(app: FastifyInstance, projectId: string, entity: string): Promise<string> {
  const { db } = app.database;
  const row = await createFlow(db, projectId, {
    name: `F${++entitySeq}`,
    _option: { _entity: entity },
    _process: [{ _type: 'create', _handle: 'c', _entity: entity, _procedure: { values: { name: "'run'" } } }],
  });
  await releaseFlow(db, row, null);
  return row.id;
}

/** A released dataset over a table: its `name` column. */
async function seedDataset(app: FastifyInstance, projectId: string, entity: string): Promise<string> {
  const { db } = app.database;
  const row = await createDataset(db, projectId, {
    name: 'DS',
    _dataset: { base: entity, columns: [{ key: 'name', expr: { ref: 't.name' } }] },
  });
  await releaseDataset(db, row, null);
  return row.id;
}

interface World {
  A: Fx;
  B: Fx;
  P: Fx;
  E: Fx;
  tokens: Record<ActorName, string | undefined>;
}
const fixtures = new Map<FastifyInstance, World>();

async function project(
  app: FastifyInstance,
  key: ProjectKey,
  ownerId: string,
  opts: { expired?: boolean; public?: boolean } = {},
): Promise<Fx & { grantRoleId: string }> {
  const p = await seedProject(app, ownerId, {
    tier: 3,
    ...(opts.expired ? { expired_at: Date.now() - 86_400_000 } : {}),
    ...(opts.public ? { auth: 'public' as const } : {}),
  });
  const dirId = await seedRoute(app, p.id, 'dir', null, 0);
  const grantedRoute = await seedRoute(app, p.id, 'table', dirId, 1);
  const hiddenRoute = await seedRoute(app, p.id, 'table', null, 2);
  const grantedPage = await seedPage(app, p.id);
  const hiddenPage = await seedPage(app, p.id);
  // Both pages are published (print calls take published pages only), with a blank document.
  await app.database.db
    .updateTable('pages')
    .set({ published: JSON.stringify(emptyPage()), published_version: 1, published_at: Date.now() })
    .where('id', 'in', [grantedPage, hiddenPage])
    .execute();
  const grantedEntity = await seedEntity(app, p.id);
  const hiddenEntity = await seedEntity(app, p.id);
  const grantedProgram = await seedProgram(app, p.id, grantedEntity);
  const hiddenProgram = await seedProgram(app, p.id, grantedEntity);
  const grantedDataset = await seedDataset(app, p.id, grantedEntity);
  const hiddenDataset = await seedDataset(app, p.id, grantedEntity);
  const grants = {
    route: [grantedRoute],
    page: [grantedPage],
    entity: [grantedEntity],
    program: [grantedProgram],
    dataset: [grantedDataset],
  };
  const grantRoleId = await seedRole(app, p.id, opts.public ? 'public' : 'common', grants);
  // The project holds a playground app (as the demo project does), opening at the granted page.
  const loaded = { module: '', entities: {}, pages: { board: grantedPage }, programs: {}, datasets: {} };
  await app.database.db
    .insertInto('playground_apps')
    .values({
      project_id: p.id,
      app: 'kanban',
      content: JSON.stringify({ ...loaded, rows: {}, routes: [], entry: grantedPage }),
      created_at: Date.now(),
    })
    .execute();
  const roleId = await seedRole(app, p.id, 'common');
  return {
    key,
    pid: p.id,
    ownerId,
    roleId,
    dirId,
    grantedRoute,
    hiddenRoute,
    grantedPage,
    hiddenPage,
    grantedEntity,
    hiddenEntity,
    grantedProgram,
    hiddenProgram,
    grantedDataset,
    hiddenDataset,
    grantRoleId,
  };
}

async function buildWorld(app: FastifyInstance): Promise<World> {
  const ownerA = await seedUser(app);
  const otherAdmin = await seedUser(app);
  const A = await project(app, 'A', ownerA.id);
  const B = await project(app, 'B', otherAdmin.id);
  const P = await project(app, 'P', ownerA.id, { public: true });
  const E = await project(app, 'E', ownerA.id, { expired: true });

  const adminRole = await seedRole(app, A.pid, 'admin');
  const adminA = await seedUser(app);
  await seedMember(app, A.pid, adminA.id, 'admin', adminRole);
  const commonG = await seedUser(app, { parentId: ownerA.id });
  await seedMember(app, A.pid, commonG.id, 'common', A.grantRoleId);
  await seedMember(app, B.pid, commonG.id, 'common', null);
  const commonN = await seedUser(app);
  await seedMember(app, A.pid, commonN.id, 'common', A.roleId);
  const nonMember = await seedUser(app);
  const banned = await seedUser(app);
  await seedMember(app, A.pid, banned.id, 'common', A.grantRoleId, 'disabled');

  const child = await call<{ token: string }>(app, 'GET', `/api/admin/user/${A.pid}/${commonG.id}/token`, {
    token: ownerA.token,
  });
  if (child.error !== 0) throw new Error(`child token: ${child.raw}`);

  const world: World = {
    A,
    B,
    P,
    E,
    tokens: {
      ownerA: ownerA.token,
      adminA: adminA.token,
      commonG: commonG.token,
      commonN: commonN.token,
      nonMember: nonMember.token,
      otherAdmin: otherAdmin.token,
      anon: undefined,
      child: child.data.token,
      banned: banned.token,
    },
  };
  fixtures.set(app, world);
  return world;
}

interface Cell {
  actor: ActorName;
  scope: ScopeName;
  ep: string;
  expected: 'allow' | 'deny';
  got: 'allow' | 'deny';
  detail: string;
}

async function runCell(
  app: FastifyInstance,
  w: World,
  actor: ActorName,
  scope: ScopeName,
  ep: Ep,
): Promise<Cell> {
  const [f, g] =
    scope === 'own'
      ? [w.A, w.A]
      : scope === 'other'
        ? [w.B, w.B]
        : scope === 'public'
          ? [w.P, w.P]
          : scope === 'expired'
            ? [w.E, w.E]
            : [w.A, w.B];
  const allow =
    scope === 'foreignIds'
      ? false
      : expectedAllow(ep.level, STANDING[actor][f.key], scope === 'expired') &&
        // Writing a granted table needs a signed-in user, even in a public project.
        !(ep.level === 'grantWrite' && actor === 'anon');
  const req = await ep.build(app, f, g);
  const before = !allow && ep.mutating ? await digest(app) : '';
  const token = w.tokens[actor];
  const ans = req.file
    ? await callFile(app, req, token)
    : req.export
      ? await callExport(app, req, token)
      : await call(app, req.method, req.url, {
          ...(req.body !== undefined ? { body: req.body } : {}),
          ...(token ? { token } : {}),
        });
  let got: 'allow' | 'deny' = ans.error === 0 && (!ep.allowed || ep.allowed(ans.data, f)) ? 'allow' : 'deny';
  let detail = ans.error === 0 ? 'ok' : `error ${ans.error} ${ans.msg ?? ''}`;
  if (ans.status >= 500 || ans.error === 1) {
    got = allow ? 'deny' : 'allow';
    detail = `server error ${ans.raw}`;
  }
  if (!allow && ep.mutating && got === 'deny' && (await digest(app)) !== before) {
    got = 'allow';
    detail = `denied (${detail}) but data changed`;
  }
  await ep.cleanup?.(app);
  return { actor, scope, ep: ep.name, expected: allow ? 'allow' : 'deny', got, detail };
}

describe.each(dialects)('permission matrix on %s', (dialect) => {
  let t: TestApp;
  let w: World;
  const cells: Cell[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      admin: { features: [...ADMIN_FEATURES], debug: false, debugSecret: MATRIX_DEBUG_KEY, vendor: true },
      // No index or rollup is built in the background for a query that ran slow on a loaded
      // machine: the digest holds them, and a refused call must be seen to change nothing.
      autoIndex: { slowMs: 2 ** 31, recur: 3 },
    });
    // The index and rollup cells build theirs at once (on SQLite a build waits for writes to be
    // quiet this long first).
    t.app.autoIndex.options.quietMs = 0;
    w = await buildWorld(t.app);
  });
  afterAll(async () => {
    const wrong = cells.filter((c) => c.expected !== c.got);
    console.log(
      `[matrix ${dialect}] ${cells.length} cells, ${cells.filter((c) => c.expected === 'allow').length} allow, ` +
        `${wrong.length} wrong`,
    );
    await t?.close();
  });

  for (const actor of ACTORS) {
    it(`${actor}`, async () => {
      const mine: Cell[] = [];
      for (const scope of ['own', 'other', 'public', 'expired', 'foreignIds'] as const) {
        for (const ep of ENDPOINTS) {
          if (scope === 'foreignIds' && !ep.ids) continue;
          if (ep.sqliteOnly && dialect !== 'sqlite') continue;
          // MATRIX_ONLY=<text>: only the endpoints whose name contains it (while working on one area).
          if (process.env.MATRIX_ONLY && !ep.name.includes(process.env.MATRIX_ONLY)) continue;
          mine.push(await runCell(t.app, w, actor, scope, ep));
        }
      }
      cells.push(...mine);
      const wrong = mine
        .filter((c) => c.expected !== c.got)
        .map((c) => `${c.actor} × ${c.scope} × ${c.ep}: expected ${c.expected}, got ${c.got} (${c.detail})`);
      expect(wrong).toEqual([]);
      // Each actor sweeps every endpoint in five scopes: hundreds of calls, slow on a loaded machine.
    }, 180_000);
  }
});
