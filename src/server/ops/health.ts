/**
 * Probes for process managers and load balancers: `/healthz` answers while the process serves
 * requests (liveness); `/readyz` answers 200 only when the database — and Redis, when configured —
 * answer a round trip within 2 s, else 503 naming what failed (readiness). Both are public: they
 * say nothing but ok / not ok. While the server shuts down, Fastify answers 503 to both.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { E } from '../../shared/errors.ts';

const CHECK_MS = 2000;

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer in ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** The readiness checks: name → ok. */
export async function readiness(app: FastifyInstance): Promise<Record<string, boolean>> {
  const checks: Record<string, Promise<unknown>> = {
    database: within(sql`select 1`.execute(app.database.db), CHECK_MS, 'database'),
  };
  if (app.realtime?.redis.used) checks.redis = within(app.realtime.redis.ping(), CHECK_MS, 'redis');
  const names = Object.keys(checks);
  const results = await Promise.allSettled(Object.values(checks));
  return Object.fromEntries(names.map((n, i) => [n, results[i]!.status === 'fulfilled']));
}

export function installHealth(app: FastifyInstance): void {
  const schema = { hide: true } as const;
  app.get('/healthz', { schema }, async () => ({ error: 0, data: { ok: true } }));
  app.get('/readyz', { schema }, async (_request, reply) => {
    const checks = await readiness(app);
    const failed = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    if (failed.length === 0) return { error: 0, data: { ok: true, checks } };
    reply.status(E.NOT_READY.status);
    return { error: E.NOT_READY.code, msg: `${E.NOT_READY.msg}: ${failed.join(', ')}`, data: { checks } };
  });
}
