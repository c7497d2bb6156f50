/**
 * The sandbox worker: runs builder code (the project's setup script, code commands) away from the
 * page, inside the sandbox frame (sandbox-frame.ts), whose Content-Security-Policy it inherits: no
 * network at all. It has no DOM; before any builder code runs its doors are hidden too
 * (sandbox-block.ts), so the code can reach the outside only through the page API below, which the
 * page carries out with the user's own permissions. `new Function` is used here, inside the worker
 * only: the worker is the isolation boundary, never the page. Bundled into one classic script
 * (`?sandbox-source`): it must not load anything at run time.
 */
import { pickText } from '../../shared/script-api.ts';
import { blockGlobals } from './sandbox-block.ts';
import {
  API_METHODS,
  type ApiMethod,
  type FromWorker,
  type RunContext,
  type ToWorker,
} from './sandbox-protocol.ts';

const scope = self as unknown as Record<string, unknown>;
const post = (m: FromWorker) => (self as unknown as { postMessage(m: unknown): void }).postMessage(m);

// Before any builder code runs: see sandbox-block.ts (the CSP is the wall, this the second line).
blockGlobals(scope);

let callSeq = 0;
const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

function makeApi(run: number, context: RunContext) {
  const call = (method: ApiMethod, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++callSeq;
      pending.set(id, { resolve, reject });
      post({ type: 'call', run, call: id, method, args: JSON.parse(JSON.stringify(args ?? [])) });
    });
  const api: Record<string, unknown> = {
    user: context.user,
    params: context.params,
    state: context.state,
    lang: context.lang,
    t: (texts: unknown, vars?: unknown) => pickText(texts, context.lang, vars),
  };
  for (const m of API_METHODS) api[m] = (...args: unknown[]) => call(m, args);
  return Object.freeze(api);
}

self.addEventListener('message', (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === 'ping') {
    post({ type: 'pong', ping: m.ping });
    return;
  }
  if (m.type === 'reply') {
    const p = pending.get(m.call);
    if (!p) return;
    pending.delete(m.call);
    if (m.ok) p.resolve(m.value);
    else p.reject(new Error(m.error));
    return;
  }
  if (m.type === 'run') {
    const api = makeApi(m.run, m.context);
    let result: Promise<unknown>;
    try {
      const fn = new Function('api', `"use strict";\nreturn (async () => {\n${m.code}\n})();`) as (
        api: unknown,
      ) => Promise<unknown>;
      result = fn(api);
    } catch (err) {
      result = Promise.reject(err);
    }
    result.then(
      () => post({ type: 'done', run: m.run, ok: true }),
      (err: unknown) =>
        post({
          type: 'done',
          run: m.run,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
        }),
    );
  }
});

post({ type: 'ready' });
