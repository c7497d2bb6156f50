import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { area, CORE, crossCutting } from '../../src/server/http/plugin-kit.ts';

describe('plugin kit', () => {
  it('an area registered before the core pieces fails at start, naming what is missing', async () => {
    const app = Fastify();
    app.register(area('lc-example', async () => {}));
    await expect(app.ready()).rejects.toThrow(/lc-example.*lc-errors|lc-errors.*lc-example/);
    await app.close();
  });

  it('an area keeps its hooks to itself; cross-cutting pieces act on the whole app', async () => {
    const app = Fastify();
    const seen: string[] = [];
    for (const name of Object.values(CORE)) await app.register(crossCutting(name, () => {}));
    await app.register(
      crossCutting('lc-test-header', (root) => {
        root.addHook('onSend', async (_q, reply) => {
          reply.header('x-everywhere', '1');
        });
      }),
    );
    await app.register(
      area('lc-inner', async (inner) => {
        inner.addHook('onRequest', async (request) => {
          seen.push(request.url);
        });
        inner.get('/inner', async () => 'in');
      }),
      { prefix: '/a' },
    );
    app.get('/outer', async () => 'out');
    const outer = await app.inject('/outer');
    const inner = await app.inject('/a/inner');
    expect(outer.headers['x-everywhere']).toBe('1');
    expect(inner.headers['x-everywhere']).toBe('1');
    expect(inner.body).toBe('in');
    expect(seen).toEqual(['/a/inner']);
    await app.close();
  });
});
