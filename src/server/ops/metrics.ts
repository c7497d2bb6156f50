/**
 * Prometheus metrics at `/metrics` (prom-client, one registry per app): request latency by route,
 * the process's default metrics (event loop lag, heap, CPU, handles), open real-time connections and
 * rooms, and the database pool.
 *
 * Who may read them: with METRICS_TOKEN set, requests carrying `Authorization: Bearer <token>`;
 * without it, only requests whose connection comes from the loopback interface, when the server is
 * not behind a proxy (TRUST_PROXY unset) and the request carries no forwarding header — behind a
 * proxy on the same machine every request would look local, so METRICS_TOKEN is then required.
 * Other callers get 401 (no or wrong token) or 403 (not local), as coded errors.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { E } from '../../shared/errors.ts';
import { CORE, crossCutting } from '../http/plugin-kit.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Why a request may not read the metrics, or null when it may. */
export function metricsRefusal(
  request: FastifyRequest,
  opts: { token: string | undefined; trustProxy: boolean },
): typeof E.AUTH_REQUIRED | typeof E.FORBIDDEN | null {
  if (opts.token) {
    const auth = request.headers.authorization ?? '';
    const given = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    return given && sameSecret(given, opts.token) ? null : E.AUTH_REQUIRED;
  }
  const forwarded =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  const local = LOOPBACK.test(request.socket.remoteAddress ?? '');
  return local && !forwarded && !opts.trustProxy ? null : E.FORBIDDEN;
}

let processMetrics: Registry | undefined;

/**
 * The process's default metrics (event loop lag, heap, CPU, handles), collected once per process:
 * they describe the process, not an app, and each collector starts an event-loop-delay monitor that
 * is never stopped (tests build many apps in one process).
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

export function installMetrics(app: FastifyInstance): Registry {
  const register = new Registry();
  processRegistry();

  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: label values stay few (and ids, tokens stay out).
    const route = request.routeOptions.url ?? (reply.statusCode === 404 ? 'not found' : 'unmatched');
    latency.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  const gauge = (name: string, help: string, labelNames: string[], collect: (g: Gauge) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [register],
      collect() {
        collect(this);
      },
    });
  gauge('lowcode_socket_connections', 'Open socket-channel (socket.io) connections', [], (g) => {
    g.set(app.realtime?.io.engine.clientsCount ?? 0);
  });
  gauge(
    'lowcode_socket_rooms',
    'Socket-channel rooms (projects, pages, members) on this process',
    [],
    (g) => {
      g.set(app.realtime?.nsp.adapter.rooms.size ?? 0);
    },
  );
  gauge('lowcode_yjs_connections', 'Open co-editing connections', [], (g) => {
    g.set(app.realtime?.yjs.stats.connections ?? 0);
  });
  gauge('lowcode_yjs_rooms', 'Co-editing documents loaded on this process', [], (g) => {
    g.set(app.realtime?.yjs.rooms.size ?? 0);
  });
  gauge('lowcode_db_pool_connections', 'Database connections by state', ['state'], (g) => {
    const pool = app.database.pool;
    if (pool) {
      g.set({ state: 'total' }, pool.totalCount);
      g.set({ state: 'idle' }, pool.idleCount);
      g.set({ state: 'waiting' }, pool.waitingCount);
    } else {
      // SQLite: one connection, used in turn.
      g.set({ state: 'total' }, 1);
      g.set({ state: 'idle' }, 1);
      g.set({ state: 'waiting' }, 0);
    }
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const refused = metricsRefusal(request, {
      token: app.config.metricsToken,
      trustProxy: app.config.trustProxy,
    });
    if (refused) return reply.status(refused.status).send({ error: refused.code, msg: refused.msg });
    const all = Registry.merge([processRegistry(), register]);
    reply.header('content-type', all.contentType);
    reply.header('cache-control', 'no-store');
    return all.metrics();
  });
  return register;
}

export default crossCutting(CORE.metrics, (app) => {
  installMetrics(app);
});
