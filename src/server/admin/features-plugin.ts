/**
 * The administration area's switches (shared/admin/features.ts): what the side menu and the member
 * and role screens show for a project, and whether debug mode may be switched on here.
 */
import type { FastifyInstance } from 'fastify';
import {
  ADMIN_FEATURES,
  effectiveFeatures,
  FEATURE_FLAGS,
  FEATURES_KEY,
  FEATURES_MODEL,
  readFeatures,
} from '../../shared/admin/features.ts';
import { projectAccess } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { bool, obj, ok, projectParams, str } from '../http/schemas.ts';
import { findItem } from '../share/service.ts';
import { debugSecretMatches } from './debug-secret.ts';
import { i18nSources } from './i18n-sources.ts';

const flagsSchema = obj(Object.fromEntries(FEATURE_FLAGS.map((f) => [f, bool()])));

async function featuresPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const { admin } = app.config;

  app.get(
    '/api/admin/project/:project/features',
    {
      schema: {
        tags: ['project'],
        params: projectParams,
        response: {
          200: ok(
            obj({
              flags: flagsSchema,
              stored: { type: 'object', additionalProperties: { type: 'boolean' } },
              installed: { type: 'array', items: str(16) },
              debugOpen: bool(),
              debugSecret: bool(),
              vendor: bool(),
            }),
          ),
        },
        description:
          'The feature flags in effect for the project (the installation offers a feature through ' +
          'ADMIN_FEATURES and the project has not switched it off under share config/project/features), ' +
          'the stored switches, whether debug mode is open to all here (ADMIN_DEBUG) or needs the ' +
          'per-host-and-project secret, and whether this is a vendor build. Owners and administrators only.',
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await projectAccess(request, (request.params as { project: string }).project, {
        admin: true,
        dev: false,
      });
      const row = await findItem(db, {
        projectId: project.id,
        model: FEATURES_MODEL,
        type: 'project',
        owner: '',
        key: FEATURES_KEY,
      });
      let stored = {};
      try {
        stored = readFeatures(row ? JSON.parse(row.value) : {});
      } catch {
        stored = {};
      }
      return {
        error: 0,
        data: {
          flags: effectiveFeatures(admin.features, stored),
          stored,
          installed: ADMIN_FEATURES.filter((f) => admin.features.includes(f)),
          debugOpen: admin.debug,
          debugSecret: admin.debugSecret !== undefined,
          vendor: admin.vendor,
        },
      };
    },
  );

  app.post(
    '/api/admin/project/:project/debug',
    {
      schema: {
        tags: ['project'],
        params: projectParams,
        body: obj({ 'secret?': str(64) }),
        response: { 200: ok(obj({ debug: bool() })) },
        description:
          'May debug mode be switched on for this project here? Yes when ADMIN_DEBUG=1, or when `secret` ' +
          'is the one derived from this host and the project (scripts/debug-secret.mjs); otherwise 2101. ' +
          'The switch itself is kept in the browser. Owners and administrators only.',
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await projectAccess(request, (request.params as { project: string }).project, {
        admin: true,
        dev: false,
      });
      const { secret } = (request.body ?? {}) as { secret?: string };
      if (admin.debug) return { error: 0, data: { debug: true } };
      if (!secret || !debugSecretMatches(admin.debugSecret, request.hostname, project.id, secret))
        fail(E.DEBUG_REFUSED);
      return { error: 0, data: { debug: true } };
    },
  );
}

async function i18nSourcesRoute(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/admin/project/:project/i18n/sources',
    {
      schema: {
        tags: ['project'],
        params: projectParams,
        response: {
          200: ok({
            type: 'array',
            items: obj({ id: str(300), kind: str(16), where: str(400), source: str(4000) }),
          }),
        },
        description:
          'The texts /system/i18n translates besides page titles and menu names: captions of widgets in ' +
          'published pages (id `{page}.{widget}`: a title, else a text, else a placeholder), options of ' +
          "option fields' own lists (`{field}.{option}`) and of option sets (`set:{set}.{option}`). At " +
          'most 5,000. Owners and administrators only.',
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await projectAccess(request, (request.params as { project: string }).project, {
        admin: true,
        dev: false,
      });
      return { error: 0, data: await i18nSources(app.database.db, project.id) };
    },
  );
}

export default area('lc-admin-features', async (app) => {
  await featuresPlugin(app);
  await i18nSourcesRoute(app);
});
