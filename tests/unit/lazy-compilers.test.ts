/** Route schemas compile on first use or in the warm-up, with Fastify's behaviour unchanged. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyCompilers, pendingCompilations, warmUp } from '../../src/server/http/lazy-compilers.ts';

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

async function build(): Promise<FastifyInstance> {
  app = Fastify({
    logger: false,
    schemaController: { compilersFactory: lazyCompilers },
    ajv: { customOptions: { removeAdditional: true, useDefaults: true, coerceTypes: false } },
  });
  app.addSchema({ $id: 'Thing', type: 'object', properties: { n: { type: 'integer' } } });
  app.post(
    '/things',
    {
      schema: {
        body: {
          type: 'object',
          required: ['n'],
          additionalProperties: false,
          properties: { n: { type: 'integer', minimum: 1 }, tag: { type: 'string', default: 'none' } },
        },
        response: {
          200: { type: 'object', properties: { n: { type: 'integer' }, tag: { type: 'string' } } },
        },
      },
    },
    async (request) => ({ ...(request.body as object), secret: 'never serialised' }),
  );
  app.get('/ref', { schema: { response: { 200: { $ref: 'Thing#' } } } }, async () => ({ n: 3, hidden: 1 }));
  await app.ready();
  return app;
}

describe('lazy route compilers', () => {
  it('leave compiling to the first call, then validate and serialise as Fastify does', async () => {
    const a = await build();
    expect(pendingCompilations()).toBeGreaterThan(0);
    const bad = await a.inject({ method: 'POST', url: '/things', payload: { n: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/body\/n must be >= 1/);
    const good = await a.inject({ method: 'POST', url: '/things', payload: { n: 2, extra: true } });
    expect(good.statusCode).toBe(200);
    // Defaults applied, extra keys removed, keys outside the response schema not sent.
    expect(good.json()).toEqual({ n: 2, tag: 'none' });
    const ref = await a.inject({ method: 'GET', url: '/ref' });
    expect(ref.json()).toEqual({ n: 3 });
  });

  it('warmUp compiles what no request needed yet', async () => {
    await build();
    expect(pendingCompilations()).toBeGreaterThan(0);
    const errors: unknown[] = [];
    await warmUp((err) => errors.push(err));
    expect(pendingCompilations()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('warmUp reports a schema that does not compile instead of throwing', async () => {
    app = Fastify({ logger: false, schemaController: { compilersFactory: lazyCompilers } });
    app.post(
      '/broken',
      { schema: { body: { type: 'object', properties: { a: { $ref: 'Missing#' } } } } },
      async () => 1,
    );
    await app.ready();
    const errors: unknown[] = [];
    await warmUp((err) => errors.push(err));
    expect(errors).toHaveLength(1);
    expect(pendingCompilations()).toBe(0);
  });
});
