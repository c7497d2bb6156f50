/**
 * The builder-code sandbox in Chromium (issue #17, items 2–4): builder code reaches no network —
 * `import()` of http and data: URLs, fetch, importScripts, WebSocket, EventSource, nested workers
 * and sendBeacon all fail from a setup script and from a code command, a listening server hears
 * nothing, and the page keeps working; the sandbox frame's policy stops them on its own (a worker
 * with every global intact); the frame runs in a process of its own. (An allocation loop:
 * sandbox-memory.spec.ts.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, expect, test } from '@playwright/test';
import { FRAME_START, SANDBOX_FRAME_PATH } from '../../src/shared/sandbox-frame.ts';
import { shot, signInWithToken } from './helpers.ts';
import { codeButton, sandboxProject, textbox } from './sandbox-helpers.ts';

test.describe.configure({ mode: 'serial' });

/** A server on another port that records every request (the place builder code must not reach). */
let listener: http.Server;
let outside = '';
const heard: string[] = [];

test.beforeAll(async () => {
  listener = http.createServer((req, res) => {
    heard.push(`${req.method} ${req.url}`);
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('content-type', 'text/javascript');
    res.end('export default 1;');
  });
  listener.on('upgrade', (req, socket) => {
    heard.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  outside = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => listener?.close(resolve));
});

/**
 * Tries every door and answers what happened to each: `failed` is what we want. `from` names the
 * caller in the URLs. Ordinary objects with fields named like the doors must keep working (item 4).
 */
function probe(from: string): string {
  return `
    const target = ${JSON.stringify(outside)};
    const out = {};
    const attempt = async (name, f) => {
      try { await f(); out[name] = 'reached'; } catch { out[name] = 'failed'; }
    };
    const opened = (o) => new Promise((resolve, reject) => {
      o.onopen = resolve; o.onmessage = resolve; o.onerror = () => reject(new Error('error'));
    });
    await attempt('import-http', () => import(target + '/import-${from}.js'));
    await attempt('import-data', () => import('data:text/javascript,export default 1'));
    await attempt('fetch', () => fetch(target + '/fetch-${from}'));
    await attempt('importScripts', () => importScripts(target + '/importScripts-${from}.js'));
    await attempt('WebSocket', () => opened(new WebSocket(target.replace('http', 'ws') + '/ws-${from}')));
    await attempt('EventSource', () => opened(new EventSource(target + '/events-${from}')));
    await attempt('Worker', () => new Promise((resolve, reject) => {
      const source = 'fetch(' + JSON.stringify(target + '/nested-${from}') + ').then(() => postMessage(1), () => postMessage(0))';
      const w = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      w.onmessage = (e) => (e.data === 1 ? resolve() : reject(new Error('nested fetch failed')));
      w.onerror = () => reject(new Error('nested worker failed'));
    }));
    await attempt('sendBeacon', () => {
      if (!navigator.sendBeacon(target + '/beacon-${from}', 'x')) throw new Error('refused');
    });
    const o = {};
    o.fetch = 1;
    o.navigator = 2;
    out.ordinary = JSON.stringify(Object.assign({}, { caches: 'c' }, o));
  `;
}

const DOORS = [
  'import-http',
  'import-data',
  'fetch',
  'importScripts',
  'WebSocket',
  'EventSource',
  'Worker',
  'sendBeacon',
] as const;
const ALL_FAILED = {
  ...Object.fromEntries(DOORS.map((d) => [d, 'failed'])),
  ordinary: '{"caches":"c","fetch":1,"navigator":2}',
};

/** Whether the page's sandbox frame is an out-of-process iframe (a target of its own in Chromium). */
async function frameIsOwnProcess(browser: Browser): Promise<boolean> {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as {
    targetInfos: { type: string; url: string }[];
  };
  await cdp.detach();
  return targetInfos.some((t) => t.type === 'iframe' && t.url.includes(SANDBOX_FRAME_PATH));
}

test('builder code reaches no network from a setup script or a code command; the page keeps working', async ({
  page,
  request,
  browser,
}) => {
  const s = await sandboxProject(
    request,
    'Doors',
    [
      textbox('setupResult', 0),
      textbox('codeResult', 6),
      codeButton(
        'probe',
        'Probe',
        12,
        `${probe('code')}\nawait api.setValue('codeResult', JSON.stringify(out));`,
      ),
      codeButton('hello', 'Hello', 18, "api.notify('still here')"),
    ],
    `${probe('setup')}\nawait api.setValue('setupResult', JSON.stringify(out));`,
  );
  await signInWithToken(page, s.token, s.project);
  await page.goto(`/page/${s.page}`);
  const canvas = page.locator('.lc-page');

  // The setup script ran when the page opened: every door failed.
  await expect(canvas.getByPlaceholder('setupResult')).not.toHaveValue('');
  expect(JSON.parse(await canvas.getByPlaceholder('setupResult').inputValue())).toEqual(ALL_FAILED);

  // The same from a code command.
  await canvas.getByRole('button', { name: 'Probe' }).click();
  await expect(canvas.getByPlaceholder('codeResult')).not.toHaveValue('');
  expect(JSON.parse(await canvas.getByPlaceholder('codeResult').inputValue())).toEqual(ALL_FAILED);

  // Nothing reached the listening server; the page and its code still work.
  expect(heard).toEqual([]);
  await canvas.getByRole('button', { name: 'Hello' }).click();
  await expect(page.getByText('still here')).toBeVisible();

  // The code ran in the sandbox frame: an opaque-origin iframe in a process of its own.
  const frame = page.locator('iframe[data-lc-sandbox]');
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts');
  await expect(frame).toHaveAttribute('src', SANDBOX_FRAME_PATH);
  expect(await frameIsOwnProcess(browser)).toBe(true);
  await shot(page, 'sandbox-doors');
});

test("the sandbox frame's policy alone stops every door (a worker with all its globals)", async ({
  page,
  request,
}) => {
  const s = await sandboxProject(request, 'Policy', [textbox('x', 0)], '');
  await signInWithToken(page, s.token, s.project);
  await page.goto(`/page/${s.page}`);
  await expect(page.locator('.lc-page').getByPlaceholder('x')).toBeVisible();
  // A worker that does not hide its globals: only the frame's Content-Security-Policy is left.
  const source = `(async () => {
    const intact = [typeof fetch, typeof WebSocket, typeof EventSource, typeof importScripts, typeof Worker, typeof XMLHttpRequest].join(' ');
    ${probe('policy')}
    await attempt('XMLHttpRequest', () => new Promise((resolve, reject) => {
      const x = new XMLHttpRequest();
      x.open('GET', target + '/xhr-policy');
      x.onload = resolve; x.onerror = () => reject(new Error('error'));
      x.send();
    }));
    postMessage({ intact, out });
  })();`;
  const answer = await page.evaluate(
    ([path, start, text]) =>
      new Promise<unknown>((resolve) => {
        const frame = document.createElement('iframe');
        frame.setAttribute('sandbox', 'allow-scripts');
        frame.style.display = 'none';
        frame.src = path;
        const channel = new MessageChannel();
        channel.port1.onmessage = (e) => {
          if (e.data && 'w' in e.data) resolve(e.data.w);
        };
        frame.onload = () =>
          frame.contentWindow!.postMessage({ type: start, source: text }, '*', [channel.port2]);
        document.body.append(frame);
      }),
    [SANDBOX_FRAME_PATH, FRAME_START, source] as const,
  );
  expect(answer).toEqual({
    intact: 'function function function function function function',
    // sendBeacon does not exist in workers: it fails here for want of the method.
    out: { ...ALL_FAILED, XMLHttpRequest: 'failed' },
  });
  expect(heard).toEqual([]);
});

test.afterAll(() => {
  // Keep the listener's record in the report when something did get through.
  if (heard.length) console.log('heard from builder code:', heard);
});
