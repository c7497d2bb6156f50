/** Roles and grants: /api/admin/auth/{project}/main/role/… (registered under the /api/admin/auth prefix). */
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/auth.ts';
import { forgetSessionsAfterWrites } from '../account/session-cache.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { bool, id, obj, ok, projectParams, str } from '../http/schemas.ts';
import { authorize } from './decide.ts';
import {
  GRANT_KINDS,
  type Grants,
  HOME_TYPES,
  parseOptions,
  publicRole,
  type RoleHome,
  type RoleOptions,
} from './grants.ts';
import { checkRoleOptions } from './role-join.ts';
import {
  checkGrants,
  createRole,
  enablePublicRole,
  findRole,
  listRoles,
  mergeGrants,
  removeRole,
  saveGrants,
  saveRole,
} from './roles.ts';

const ref = () => str(64, { minLength: 1 });
const list = () => ({ type: 'array', items: ref(), maxItems: 2000 });
const homeSchema = {
  anyOf: [obj({ type: { type: 'string', enum: [...HOME_TYPES] }, value: ref() }), { type: 'null' }],
};
const optionsSchema = obj({ 'apply?': bool(), 'enable?': bool(), 'reg?': bool() });
const roleType = { type: 'string', enum: ['admin', 'common'] };
const grantProps = Object.fromEntries(GRANT_KINDS.map((k) => [`${k}?`, list()]));

const roleSchema = obj({
  _id: str(),
  name: str(),
  type: str(),
  options: obj({ apply: bool(), enable: bool(), reg: bool() }),
  home: { anyOf: [obj({ type: str(), value: str() }), { type: 'null' }] },
  ...Object.fromEntries(GRANT_KINDS.map((k) => [k, { type: 'array', items: str() }])),
  _user: { type: 'array', items: str() },
});
const roleParams = obj({ project: id(), id: id() });

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) fail(E.INVALID_FIELD, 'name: cannot be empty');
  return n;
}

async function accessPlugin(app: FastifyInstance): Promise<void> {
  // Membership, role and session changes here (bans, removals, demotions, child tokens) must
  // reach cached sessions; clear them once the change is committed and answered.
  forgetSessionsAfterWrites(app);
  const { db } = app.database;
  const base = '/:project/main/role';
  const tags = ['access'];

  app.get(
    `${base}/list`,
    {
      schema: { tags, params: projectParams, response: { 200: ok({ type: 'array', items: roleSchema }) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await authorize(request, (request.params as { project: string }).project, {
        kind: 'admin',
      });
      return { error: 0, data: await listRoles(db, project.id) };
    },
  );

  app.post(
    `${base}/create`,
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ name: str(64), 'type?': roleType, 'options?': optionsSchema, 'home?': homeSchema }),
        response: { 200: ok(roleSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await authorize(request, (request.params as { project: string }).project, {
        kind: 'admin',
      });
      const b = request.body as {
        name: string;
        type?: 'admin' | 'common';
        options?: Partial<RoleOptions>;
        home?: RoleHome | null;
      };
      const name = cleanName(b.name);
      checkRoleOptions(b.type ?? 'common', parseOptions(JSON.stringify(b.options ?? {})));
      await checkGrants(db, project.id, {}, b.home);
      const role = await createRole(db, project.id, {
        name,
        type: b.type ?? 'common',
        ...(b.options ? { options: b.options } : {}),
        ...(b.home ? { home: b.home } : {}),
      });
      return { error: 0, data: publicRole(role) };
    },
  );

  app.post(
    `${base}/:id/update`,
    {
      schema: {
        tags,
        params: roleParams,
        body: obj({ 'name?': str(64), 'type?': roleType, 'options?': optionsSchema, 'home?': homeSchema }),
        response: { 200: ok(roleSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = request.params as { project: string; id: string };
      const { project } = await authorize(request, p.project, { kind: 'admin' });
      const role = await findRole(db, project.id, p.id);
      const b = request.body as {
        name?: string;
        type?: 'admin' | 'common';
        options?: Partial<RoleOptions>;
        home?: RoleHome | null;
      };
      if (b.type && role.type === 'public') fail(E.INVALID_FIELD, 'type: the public role keeps its type');
      await checkGrants(db, project.id, {}, b.home);
      const next = {
        ...role,
        ...(b.name !== undefined ? { name: cleanName(b.name) } : {}),
        ...(b.type ? { type: b.type } : {}),
        ...(b.options ? { options: JSON.stringify({ ...parseOptions(role.options), ...b.options }) } : {}),
        ...(b.home !== undefined ? { home: b.home ? JSON.stringify(b.home) : null } : {}),
        updated_at: Date.now(),
      };
      checkRoleOptions(next.type, parseOptions(next.options));
      await saveRole(db, project.id, role, next);
      return { error: 0, data: publicRole(next) };
    },
  );

  app.get(
    `${base}/:id/remove`,
    {
      schema: { tags, params: roleParams, response: { 200: ok(obj({ removed: bool() })) } },
      preHandler: requireUser,
    },
    async (request) => {
      const p = request.params as { project: string; id: string };
      const { project } = await authorize(request, p.project, { kind: 'admin' });
      const role = await findRole(db, project.id, p.id);
      await removeRole(db, project.id, role);
      return { error: 0, data: { removed: true } };
    },
  );

  app.get(
    `${base}/public`,
    {
      schema: { tags, params: projectParams, response: { 200: ok(roleSchema) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await authorize(request, (request.params as { project: string }).project, {
        kind: 'admin',
      });
      const role = await enablePublicRole(db, project.id);
      return { error: 0, data: publicRole(role) };
    },
  );

  app.post(
    `${base}/:id/bind`,
    {
      schema: {
        tags,
        params: roleParams,
        body: obj({ ...grantProps, 'home?': homeSchema }),
        response: { 200: ok(roleSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = request.params as { project: string; id: string };
      const { project } = await authorize(request, p.project, { kind: 'admin' });
      const role = await findRole(db, project.id, p.id);
      const b = request.body as Partial<Grants> & { home?: RoleHome | null };
      const patch = await checkGrants(db, project.id, b, b.home);
      const next = {
        ...role,
        grants: mergeGrants(role, patch),
        ...(b.home !== undefined ? { home: b.home ? JSON.stringify(b.home) : null } : {}),
        updated_at: Date.now(),
      };
      await saveGrants(db, project.id, next);
      return { error: 0, data: publicRole(next) };
    },
  );
}

export default area('lc-access', accessPlugin);
