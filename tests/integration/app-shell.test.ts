import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSignInPath, loadAppShell } from '../../src/server/http/app-shell.ts';
import { APP_CSP, SANDBOX_FRAME_CSP } from '../../src/server/http/security-headers.ts';
import { SANDBOX_FRAME_PATH } from '../../src/shared/sandbox-frame.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const INDEX = `<!doctype html>
<html><head>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
</head><body><div id="root"></div></body></html>`;

function clientDir(preload?: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-shell-'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets/index-abc.js'), 'export {};');
  if (preload !== undefined)
    fs.writeFileSync(
      path.join(dir, 'page-preload.json'),
      typeof preload === 'string' ? preload : JSON.stringify(preload),
    );
  return dir;
}

describe('app shell', () => {
  it('tells sign-in paths apart', () => {
    for (const p of [
      '/login',
      '/login/register',
      '/login/abc',
      `/${'a'.repeat(24)}/login`,
      '/pc-only',
      '/reset',
    ])
      expect(isSignInPath(p), p).toBe(true);
    for (const p of ['/', '/page/x', '/home/x', '/app/p/x', '/dev/preview', '/loginx', '/user'])
      expect(isSignInPath(p), p).toBe(false);
  });

  it('hints the page chunk on page routes only, and only files of the assets folder', () => {
    const shell = loadAppShell(
      clientDir({
        js: [
          'assets/runtime-1.js',
          '../secret.js',
          'assets/x.js"><script>alert(1)</script>',
          7,
          'assets/es-2.js',
        ],
        css: ['assets/runtime-1.css', 'https://evil.example/x.css'],
      }),
    )!;
    const page = shell.html('/page/abc');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/runtime-1.js">');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/es-2.js">');
    expect(page).toContain('<link rel="preload" as="style" crossorigin href="/assets/runtime-1.css">');
    expect(page).not.toContain('secret');
    expect(page).not.toContain('alert');
    expect(page).not.toContain('evil');
    expect(page.indexOf('runtime-1.js')).toBeLessThan(page.indexOf('</head>'));
    expect(shell.html('/login')).toBe(INDEX);
  });

  it('serves the plain file without a list, with a broken list, and null without a build', () => {
    expect(loadAppShell(clientDir())!.html('/page/x')).toBe(INDEX);
    expect(loadAppShell(clientDir('{not json'))!.html('/page/x')).toBe(INDEX);
    expect(loadAppShell(clientDir({ js: 'assets/a.js' }))!.html('/page/x')).toBe(INDEX);
    expect(loadAppShell(path.join(os.tmpdir(), 'lc-no-such-client'))).toBeNull();
  });
});

describe('app shell over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { clientDir: clientDir({ js: ['assets/runtime-1.js'], css: [] }) });
  });
  afterAll(() => t.close());

  it('answers client routes with the shell (hinted past sign-in), assets as files, unknown assets 404', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/page/abc?x=1' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('href="/assets/runtime-1.js"');
    const login = await t.app.inject({ method: 'GET', url: '/login' });
    expect(login.body).toBe(INDEX);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    // Hashed build assets are cached for good; other files of the client folder revalidate.
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const list = await t.app.inject({ method: 'GET', url: '/page-preload.json' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: expect.any(Number) });
  });

  it('sends the app policy, frame-ancestors, nosniff and a referrer policy with the shell', async () => {
    for (const url of ['/page/abc', '/login', '/dev/design/abc?project=x']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe(APP_CSP);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
    }
    const policy = new Map(
      APP_CSP.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)] as [string, string[]]),
    );
    expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    // No inline script and no other host may run in the app.
    expect(policy.get('script-src')).toEqual(["'self'", "'unsafe-eval'"]);
    // Our own origin, and the desktop print client on the user's own computer only.
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:*']);
    // Files and API answers say nosniff too, without the shell's policy.
    for (const url of ['/assets/index-abc.js', '/api/nothing-here']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
      expect(res.headers['content-security-policy'], url).toBeUndefined();
    }
  });

  it('serves the sandbox frame under a policy with no network, whose script hash is the served script', async () => {
    const res = await t.app.inject({ method: 'GET', url: SANDBOX_FRAME_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(SANDBOX_FRAME_CSP);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const directives = String(res.headers['content-security-policy']).split('; ');
    expect(directives).toContain("default-src 'none'");
    expect(directives).toContain('worker-src blob:');
    expect(directives).toContain('sandbox allow-scripts');
    expect(directives).toContain("frame-ancestors 'self'");
    // Nothing may connect, load or import: no fetch-like directive but script/worker, and those
    // allow only the frame's own script (by hash) and the blob: it starts the worker from.
    expect(
      directives.filter((d) => /^(connect|img|font|media|style|frame|child|manifest)-src/.test(d)),
    ).toEqual([]);
    const scripts = [...res.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]!).digest('base64');
    expect(directives).toContain(`script-src 'sha256-${hash}' 'unsafe-eval'`);
    expect(res.body).not.toMatch(/<script[^>]*src=/);
  });
});
