import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/** Routes kept out of the docs on purpose (schema.hide): test-mode hooks and the health probe. */
const HIDDEN = [/^\/api\/test\//, /^\/api\/health$/, /^\/api\/docs(\/|$)/];

/** Every registered route with its methods, read from Fastify's route tree (children are relative). */
function registeredRoutes(tree: string): Map<string, Set<string>> {
  const routes = new Map<string, Set<string>>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    const methods = m[3]!.split(', ').filter((x) => x !== 'HEAD');
    routes.set(path, new Set([...(routes.get(path) ?? []), ...methods]));
  }
  return routes;
}

describe('OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/docs/json lists every /api route with its methods', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);

    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false }));
    const expected: Record<string, string[]> = {};
    for (const [path, methods] of registered) {
      if (!path.startsWith('/api/') || HIDDEN.some((h) => h.test(path))) continue;
      expected[path.replace(/:(\w+)/g, '{$1}')] = [...methods].map((x) => x.toLowerCase()).sort();
    }
    const documented = Object.fromEntries(
      Object.entries(doc.paths).map(([p, ops]) => [p, Object.keys(ops).sort()]),
    );
    expect(documented).toEqual(expected);
    // The routes this stage must have, so a broken tree parse cannot pass as "both empty".
    for (const p of [
      '/api/common/user/login',
      '/api/common/user/reg',
      '/api/common/user/userInfo',
      '/api/common/user/resetPwd',
      '/api/common/utils/captcha',
      '/api/common/utils/verifyCode',
      '/api/common/project/list',
      '/api/common/project/custom/{custom}',
      '/api/common/app/{project}/init',
      '/api/common/app/{project}/{page}/init',
      '/api/admin/project/{project}',
      '/api/admin/project/{project}/custom/set',
    ]) {
      expect(documented).toHaveProperty([p]);
    }
  });

  it('every POST documents its request body and every route its 200 answer', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).body) as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>>;
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.responses, `${method} ${path}`).toHaveProperty('200');
        if (method === 'post' && !path.endsWith('/logout'))
          expect(op.requestBody, `${method} ${path}`).toBeDefined();
      }
    }
  });

  it('shared schemas are defined once and referenced by the routes that use them', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).body) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    for (const name of ['User', 'Project', 'ProjectParams'])
      expect(Object.keys(doc.components.schemas)).toContain(name);
    expect(doc.components.schemas.User!.properties).toHaveProperty('auth');
    // A route whose params are the shared `{ project }` still documents that path parameter.
    const params = doc.paths['/api/admin/project/{project}']!.get!.parameters ?? [];
    expect(params).toContainEqual(expect.objectContaining({ name: 'project', in: 'path' }));
    // And still validates it: a malformed project id is refused before the handler.
    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/project/not-an-id' });
    expect(bad.json().error).toBe(1000);
  });

  it('serves the UI at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/swagger/i);
  });
});
