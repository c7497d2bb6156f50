/**
 * How server plugins declare themselves (fastify-plugin metadata), so a missing or misordered
 * dependency fails at start with the plugin's name instead of as a hook that silently never ran.
 *
 * - Cross-cutting pieces (error handling, metrics, headers, envelope, auth) act on the whole app:
 *   they skip encapsulation and carry a name others depend on.
 * - Areas (accounts, data, pages, programs…) keep their own encapsulated context (their hooks and
 *   decorators stay inside) but name themselves and the cross-cutting pieces they need.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from 'fastify';
import fp from 'fastify-plugin';

export const CORE = {
  errors: 'lc-errors',
  metrics: 'lc-metrics',
  headers: 'lc-security-headers',
  envelope: 'lc-envelope',
  auth: 'lc-auth',
  schemas: 'lc-schemas',
} as const;

/** What every area needs before its routes are declared. */
const AREA_NEEDS = [CORE.errors, CORE.envelope, CORE.auth, CORE.schemas];

/** A piece acting on the whole app (no encapsulation), known by `name`. */
export function crossCutting(
  name: string,
  install: (app: FastifyInstance) => void | Promise<void>,
  dependencies: string[] = [],
): FastifyPluginAsync {
  return fp(
    async (app) => {
      await install(app);
    },
    { name, dependencies, fastify: '5.x' },
  );
}

/** An area's routes in their own encapsulated context, known by `name`, after the core pieces. */
export function area<O extends FastifyPluginOptions = FastifyPluginOptions>(
  name: string,
  plugin: FastifyPluginAsync<O>,
): FastifyPluginAsync<O> {
  return fp(plugin, { name, encapsulate: true, dependencies: AREA_NEEDS, fastify: '5.x' });
}
