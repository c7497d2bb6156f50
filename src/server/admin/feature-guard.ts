/**
 * The server side of the feature switches: every call listed in feature-calls.ts gets one more
 * preHandler, after the route's own (so the caller is known), that refuses it with 2220 when a flag
 * it needs is off for the project. A caller who may not manage the project gets its usual refusal
 * first, so the switches of someone else's system are not told.
 */
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import {
  effectiveFeatures,
  FEATURES_KEY,
  FEATURES_MODEL,
  type FeatureFlags,
  readFeatures,
} from '../../shared/admin/features.ts';
import { projectAccess } from '../access/decide.ts';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { CORE, crossCutting } from '../http/plugin-kit.ts';
import { findItem } from '../share/service.ts';
import { featureNeeds, isFeatureCall } from './feature-calls.ts';

/** The project's stored switches, read defensively (a malformed value switches nothing off). */
export async function storedFeatures(db: Kysely<DB>, projectId: string): Promise<FeatureFlags> {
  const row = await findItem(db, {
    projectId,
    model: FEATURES_MODEL,
    type: 'project',
    owner: '',
    key: FEATURES_KEY,
  });
  try {
    return readFeatures(row ? JSON.parse(row.value) : {});
  } catch {
    return {};
  }
}

/** The flags in effect for a project on this installation. */
export async function projectFeatures(app: FastifyInstance, projectId: string): Promise<FeatureFlags> {
  return effectiveFeatures(app.config.admin.features, await storedFeatures(app.database.db, projectId));
}

async function guard(request: FastifyRequest): Promise<void> {
  const needs = featureNeeds(request.method, request.routeOptions.url ?? '', request.params, request.body);
  if (needs.length === 0) return;
  const projectId = (request.params as { project?: unknown }).project;
  if (typeof projectId !== 'string') return;
  const app = request.server;
  const exists = await app.database.db
    .selectFrom('projects')
    .select('id')
    .where('id', '=', projectId)
    .executeTakeFirst();
  // An unknown project: the route answers it as it always does.
  if (!exists) return;
  const flags = await projectFeatures(app, projectId);
  const off = needs.find((f) => flags[f] !== true);
  if (!off) return;
  await projectAccess(request, projectId, { admin: true, dev: false });
  fail(E.FEATURE_OFF, `'${off}' is off`);
}

function install(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => isFeatureCall(m === 'HEAD' ? 'GET' : m, route.url))) return;
    const own = route.preHandler;
    const list: preHandlerHookHandler[] = own === undefined ? [] : Array.isArray(own) ? [...own] : [own];
    route.preHandler = [...list, guard as unknown as preHandlerHookHandler];
  });
}

export default crossCutting('lc-feature-guard', install, [CORE.auth]);
