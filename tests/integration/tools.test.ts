/**
 * Utilities: short links, the SSRF-safe remote-image proxy and points of interest, against local
 * servers standing in for the internet (an image host, and the map provider's API with its rules).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

/** A local server answering by path; counts the requests each path got. */
async function localServer(
  routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>,
) {
  const hits: Record<string, number> = {};
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits[path] = (hits[path] ?? 0) + 1;
    const route = routes[path];
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { server, port, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each(dialects)('utilities on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  const png = grayPng(12, 8, (x) => (x % 2 ? 0 : 255));
  let images: Awaited<ReturnType<typeof localServer>>;
  let other: Awaited<ReturnType<typeof localServer>>;
  let maps: Awaited<ReturnType<typeof localServer>>;
  let lastMapQuery: URLSearchParams | undefined;

  beforeAll(async () => {
    other = await localServer({
      '/secret.png': (_q, s) => s.writeHead(200, { 'content-type': 'image/png' }).end(png),
    });
    images = await localServer({
      '/a.png': (_q, s) => s.writeHead(200, { 'content-type': 'image/png' }).end(png),
      '/page.html': (_q, s) => s.writeHead(200, { 'content-type': 'text/html' }).end('<script>1</script>'),
      '/huge.png': (_q, s) => {
        // No content-length: the cap must be counted while reading.
        s.writeHead(200, { 'content-type': 'image/png' });
        s.write(Buffer.alloc(3000));
        s.end(Buffer.alloc(3000));
      },
      '/to-other': (_q, s) =>
        s.writeHead(302, { location: `http://127.0.0.1:${other.port}/secret.png` }).end(),
      '/to-metadata': (_q, s) =>
        s.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      '/to-a': (_q, s) => s.writeHead(302, { location: '/a.png' }).end(),
      '/loop': (_q, s) => s.writeHead(302, { location: '/loop' }).end(),
    });
    maps = await localServer({
      '/ws/geocoder/v1/': (req, res) => {
        const q = new URL(req.url!, 'http://x').searchParams;
        lastMapQuery = q;
        res.writeHead(200, { 'content-type': 'application/json' });
        if (q.get('key') !== 'test-key') {
          res.end(JSON.stringify({ status: 311, message: 'key invalid' }));
          return;
        }
        const [lat, lng] = q.get('location')!.split(',').map(Number);
        res.end(
          JSON.stringify({
            status: 0,
            result: {
              pois: [
                {
                  id: 'p1',
                  title: 'Tea house',
                  address: 'No. 1 Road',
                  category: 'food:tea',
                  location: { lat: lat! + 0.001, lng: lng! },
                  _distance: 111.2,
                },
              ],
            },
          }),
        );
      },
    });
    t = await createTestApp(dialect, {
      res: { maxBytes: 5000, timeoutMs: 5000, allow: new Set([`127.0.0.1:${images.port}`]) },
      lbs: { weixin: { key: 'test-key', url: `http://127.0.0.1:${maps.port}` }, timeoutMs: 5000 },
    });
    ({ token } = await registerUser(t.app, { user: 'tools1', pwd: 'abc12345', phone: '13600000091' }));
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([images?.close(), other?.close(), maps?.close()]);
  });

  const rows = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('short_links')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('shortens an http(s) link once and follows it', async () => {
    const a = await call<{ code: string; short: string }>(t.app, 'POST', '/api/common/utils/short', {
      token,
      body: { url: 'https://example.com/a?b=1#c' },
    });
    expect(a.error).toBe(0);
    expect(a.data.short).toBe(`/s/${a.data.code}`);
    const again = await call<{ code: string }>(t.app, 'POST', '/api/common/utils/short', {
      token,
      body: { url: 'https://example.com/a?b=1#c' },
    });
    expect(again.data.code).toBe(a.data.code);
    const go = await t.app.inject({ method: 'GET', url: a.data.short });
    expect(go.statusCode).toBe(302);
    expect(go.headers.location).toBe('https://example.com/a?b=1#c');
    const n = await t.app.database.db
      .selectFrom('short_links')
      .select('hits')
      .where('code', '=', a.data.code)
      .executeTakeFirstOrThrow();
    expect(Number(n.hits)).toBe(1);
  });

  it('refuses links that are not absolute http(s), carry credentials or are too long, storing nothing', async () => {
    const before = await rows();
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'ftp://example.com/x',
      'file:///etc/passwd',
      '/relative/path',
      'https://user:pw@example.com/',
      'https://exa mple.com/',
      `https://example.com/${'a'.repeat(2100)}`,
    ]) {
      const r = await call(t.app, 'POST', '/api/common/utils/short', { token, body: { url } });
      expect([1850, 1000], url).toContain(r.error);
    }
    expect(await rows()).toBe(before);
    expect(
      (await call(t.app, 'POST', '/api/common/utils/short', { body: { url: 'https://example.com/' } })).error,
    ).toBe(1100);
    const unknown = await t.app.inject({ method: 'GET', url: '/s/NoSuchCode' });
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.body).error).toBe(1851);
    expect(JSON.parse((await t.app.inject({ method: 'GET', url: '/s/..%2F..%2Fetc' })).body).error).toBe(
      1851,
    );
  });

  const res = (url: string) =>
    t.app.inject({ method: 'GET', url: `/api/common/utils/res?url=${encodeURIComponent(url)}` });

  it('proxies an image from an allowed host, once, then from its cache', async () => {
    const url = `http://127.0.0.1:${images.port}/a.png`;
    const first = await res(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.rawPayload.equals(png)).toBe(true);
    expect((await res(url)).rawPayload.equals(png)).toBe(true);
    expect(images.hits['/a.png']).toBe(1);
    // A redirect within the allowed host is followed.
    expect((await res(`http://127.0.0.1:${images.port}/to-a`)).statusCode).toBe(200);
  });

  it('refuses loopback, private, link-local and metadata addresses, directly or by redirect, fetching nothing', async () => {
    const refused = [
      `http://127.0.0.1:${other.port}/secret.png`,
      `http://localhost:${other.port}/secret.png`,
      `http://[::1]:${other.port}/secret.png`,
      `http://[::ffff:127.0.0.1]:${other.port}/secret.png`,
      `http://2130706433:${other.port}/secret.png`,
      `http://0x7f.1:${other.port}/secret.png`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/x.png',
      'http://192.168.1.1/x.png',
      'http://100.64.0.1/x.png',
      'http://0.0.0.0/x.png',
      `http://127.0.0.1:${images.port}/to-other`,
      `http://127.0.0.1:${images.port}/to-metadata`,
    ];
    for (const url of refused) {
      const r = await res(url);
      expect(JSON.parse(r.body).error, url).toBe(1853);
      expect(r.statusCode).toBe(403);
    }
    expect(other.hits['/secret.png']).toBeUndefined();
  });

  it('answers coded errors for bad schemes, wrong types, oversized bodies, loops and missing files', async () => {
    const code = async (url: string) => JSON.parse((await res(url)).body).error as number;
    expect(await code('file:///etc/passwd')).toBe(1852);
    expect(await code('gopher://127.0.0.1/x')).toBe(1852);
    expect(await code('not a url')).toBe(1852);
    expect(await code(`http://u:p@127.0.0.1:${images.port}/a.png`)).toBe(1852);
    expect(await code(`http://127.0.0.1:${images.port}/page.html`)).toBe(1855);
    expect(await code(`http://127.0.0.1:${images.port}/huge.png`)).toBe(1856);
    expect(await code(`http://127.0.0.1:${images.port}/loop`)).toBe(1854);
    expect(await code(`http://127.0.0.1:${images.port}/missing.png`)).toBe(1854);
    expect((await t.app.inject({ method: 'GET', url: '/api/common/utils/res' })).statusCode).toBe(400);
  });

  it('finds points of interest through the provider, keeping its key on the server', async () => {
    const r = await call<{ title: string; lat: number; distance: number }[]>(
      t.app,
      'POST',
      '/api/third/lbs/weixin/poi',
      {
        token,
        body: { lat: 31.23, lng: 121.47, map: 'wgs84' },
      },
    );
    expect(r.error).toBe(0);
    expect(r.data[0]).toMatchObject({ title: 'Tea house', distance: 111.2 });
    expect(r.raw).not.toContain('test-key');
    expect(lastMapQuery?.get('coord_type')).toBe('1');
    expect(lastMapQuery?.get('location')).toBe('31.23,121.47');
    const bad = [
      { lat: 91, lng: 0 },
      { lat: 0, lng: 181 },
      { lat: 'north', lng: 2 },
      { lat: 1, lng: 2, map: 'bd09' },
    ];
    for (const body of bad)
      expect((await call(t.app, 'POST', '/api/third/lbs/weixin/poi', { token, body })).error).toBe(1000);
    expect(
      (await call(t.app, 'POST', '/api/third/lbs/baidu/poi', { token, body: { lat: 1, lng: 2 } })).error,
    ).toBe(1000);
    expect((await call(t.app, 'POST', '/api/third/lbs/weixin/poi', { body: { lat: 1, lng: 2 } })).error).toBe(
      1100,
    );
  });
});

describe('points of interest without a provider key', () => {
  it('answers not configured, and a refusing provider answers 1858', async () => {
    const maps = await localServer({
      '/ws/geocoder/v1/': (_q, s) =>
        s
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"status":311,"message":"key invalid"}'),
    });
    const bare = await createTestApp('sqlite');
    const wrong = await createTestApp('sqlite', {
      lbs: { weixin: { key: 'wrong', url: `http://127.0.0.1:${maps.port}` }, timeoutMs: 5000 },
    });
    try {
      const a = await registerUser(bare.app, { user: 'tools2', pwd: 'abc12345', phone: '13600000092' });
      const r = await call(bare.app, 'POST', '/api/third/lbs/weixin/poi', {
        token: a.token,
        body: { lat: 1, lng: 2 },
      });
      expect(r.error).toBe(1857);
      expect(r.status).toBe(501);
      const b = await registerUser(wrong.app, { user: 'tools3', pwd: 'abc12345', phone: '13600000093' });
      const w = await call(wrong.app, 'POST', '/api/third/lbs/weixin/poi', {
        token: b.token,
        body: { lat: 1, lng: 2 },
      });
      expect(w.error).toBe(1858);
      expect(w.msg).toContain('key invalid');
    } finally {
      await bare.close();
      await wrong.close();
      await maps.close();
    }
  });
});
