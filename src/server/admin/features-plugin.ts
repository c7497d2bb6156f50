/**
 * The administration area's switches (shared/admin/features.ts): what the side menu and the member
 * and role screens show for a project, and whether debug mode may be switched on here.
 */
import type { FastifyInstance } from 'fastify';
import { ADMIN_FEATURES, effectiveFeatures, FEATURE_FLAGS } from '../../shared/admin/features.ts';
import { projectAccess } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { bool, obj, ok, projectParams, str } from '../http/schemas.ts';
import { debugSecretMatches } from './debug-secret.ts';
import { storedFeatures } from './feature-guard.ts';
import { i18nSources } from './i18n-sources.ts';

/** Requests per (user, project) in the last minute: the debug call checks a secret, so guesses are few. */
class DebugLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(private readonly max: number) {}
  /** Counts one request; false when the caller already made `max` in the last minute. */
  take(key: string, now = Date.now()): boolean {
    const recent = (this.hits.get(key) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= this.max) {
      this.hits.set(key, recent);
      return false;
    }
    recent.push(now);
    this.hits.delete(key);
    this.hits.set(key, recent);
    // Bounded: the longest-idle callers go first.
    if (this.hits.size > 10_000) this.hits.delete(this.hits.keys().next().value as string);
    return true;
  }
}

const flagsSchema = obj(Object.fromEntries(FEATURE_FLAGS.map((f) => [f, bool()])));

async function featuresPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const { admin } = app.config;
  const debugLimit = new DebugLimiter(admin.debugRate ?? 10);

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
      const stored = await storedFeatures(db, project.id);
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
          'The switch itself is kept in the browser. Owners and administrators only; at most RATE_DEBUG (10) ' +
          'requests per user and project a minute, then 2221.',
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await projectAccess(request, (request.params as { project: string }).project, {
        admin: true,
        dev: false,
      });
      if (!debugLimit.take(`${request.user!.id}:${project.id}`)) fail(E.DEBUG_RATE_LIMITED);
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
          'published pages (id `{page}.{widget}`: a title, else a text, else a placeholder), names of ' +
          "table fields (id: the field's id; spreadsheet exports use them), options of " +
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
