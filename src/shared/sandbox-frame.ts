/**
 * The sandbox frame: the document that hosts builder code's worker, shared by the server (which
 * answers it at SANDBOX_FRAME_PATH with the policy below) and the page (which embeds it).
 *
 * The page embeds it as `<iframe sandbox="allow-scripts">`: without allow-same-origin its origin is
 * opaque, so Chromium puts it in a process of its own (an out-of-memory loop there kills that process,
 * not the page's), and it can read nothing of the app (storage, cookies, DOM). The page posts the
 * worker's source and a MessagePort; the frame starts the worker from a blob: URL and relays messages
 * between the port and the worker. A worker started from a blob: URL runs under its creator's
 * Content-Security-Policy, so the frame's policy is the worker's: no network of any kind (fetch,
 * XHR, WebSocket, EventSource, beacons, `import()` of http(s), data: or blob: URLs, importScripts).
 */

/** Where the server answers the frame document. */
export const SANDBOX_FRAME_PATH = '/sandbox/frame';

/** The page's first message to the frame (window.postMessage, with the port transferred). */
export const FRAME_START = 'lc-sandbox:start';

/**
 * On the port, both ways: `{ w: message }` is for / from the worker; `{ f: … }` is the frame's own
 * (`ping` / `pong` with a number `n`: the frame's process is alive; `error` with `message`: the
 * worker failed to start or threw where nothing caught it).
 */
export type FramePortMessage =
  | { w: unknown }
  | { f: 'ping'; n: number }
  | { f: 'pong'; n: number }
  | { f: 'error'; message: string };

/**
 * The frame's only script (plain ES2020, no imports): its SHA-256 is the one script the frame's
 * policy allows. The worker's messages are wrapped in `{ w }`, so builder code cannot pass for the
 * frame. `e.source !== parent`: only the embedding page may start it, once.
 */
export const SANDBOX_FRAME_SCRIPT = `(() => {
  let started = false;
  addEventListener('message', (e) => {
    const m = e.data;
    const port = e.ports && e.ports[0];
    if (started || e.source !== parent || !port || !m || m.type !== ${JSON.stringify(FRAME_START)}) return;
    if (typeof m.source !== 'string') return;
    started = true;
    const fail = (err) => port.postMessage({ f: 'error', message: String((err && err.message) || err || 'sandbox error') });
    let worker;
    let url = URL.createObjectURL(new Blob([m.source], { type: 'text/javascript' }));
    try {
      worker = new Worker(url, { name: 'lc-sandbox' });
    } catch (err) {
      fail(err);
      return;
    }
    worker.onmessage = (w) => {
      if (url) {
        URL.revokeObjectURL(url);
        url = '';
      }
      port.postMessage({ w: w.data });
    };
    worker.onerror = (ev) => {
      ev.preventDefault();
      fail(ev.message);
    };
    port.onmessage = (p) => {
      const d = p.data;
      if (!d || typeof d !== 'object') return;
      if (d.f === 'ping') port.postMessage({ f: 'pong', n: d.n });
      else if ('w' in d) worker.postMessage(d.w);
    };
  });
})();`;

/** The frame document around the script. */
export function sandboxFrameHtml(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>sandbox</title></head><body><script>${SANDBOX_FRAME_SCRIPT}</script></body></html>`;
}

/**
 * The frame's policy, and so its worker's: nothing loads or connects anywhere; the one inline script
 * runs (by hash); the worker starts from a blob: URL and may compile builder code (`'unsafe-eval'`:
 * `new Function` in the worker, the isolation boundary); only the app itself may embed the frame;
 * `sandbox allow-scripts` keeps the origin opaque even if the frame is opened on its own.
 */
export function sandboxFrameCsp(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src '${scriptHash}' 'unsafe-eval'`,
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
    'sandbox allow-scripts',
  ].join('; ');
}
