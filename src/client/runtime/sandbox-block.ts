/**
 * The sandbox worker's second line: names of its global scope that builder code must not reach. The
 * first line is the Content-Security-Policy the worker runs under (no network at all, see
 * `src/shared/sandbox-frame.ts`); hiding these names too makes a mistake there less likely to matter
 * and tells builder code plainly that the door is not there (`typeof fetch === 'undefined'`).
 */

/** Network doors, storage, nested workers and the navigator (sendBeacon and friends live there). */
export const BLOCKED_GLOBALS = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'EventSource',
  'importScripts',
  'Worker',
  'SharedWorker',
  'caches',
  'indexedDB',
  'WebTransport',
  'BroadcastChannel',
  'Request',
  'navigator',
] as const;

/**
 * Hides `names` on the global object: each becomes an undefined, read-only, non-configurable own
 * property there. Browsers keep some of them (fetch, importScripts, indexedDB, navigator) on the
 * global's own interface prototype (WorkerGlobalScope.prototype), where a getter could be called on
 * the global again: those are deleted. Prototypes that ordinary objects share (`shared`: EventTarget's
 * and Object's) are never touched, so `o.fetch = 1` and `Object.assign({}, { navigator })` still work.
 */
export function blockGlobals(
  global: object,
  names: readonly string[] = BLOCKED_GLOBALS,
  shared: readonly object[] = defaultShared(),
): void {
  const interfaces: object[] = [];
  for (let o = Object.getPrototypeOf(global) as object | null; o && !shared.includes(o); ) {
    interfaces.push(o);
    o = Object.getPrototypeOf(o) as object | null;
  }
  for (const name of names) {
    if (Object.getOwnPropertyDescriptor(global, name)?.configurable !== false) {
      Object.defineProperty(global, name, { value: undefined, writable: false, configurable: false });
    }
    for (const proto of interfaces) {
      if (Object.getOwnPropertyDescriptor(proto, name)?.configurable) {
        delete (proto as Record<string, unknown>)[name];
      }
    }
  }
}

function defaultShared(): object[] {
  const out: object[] = [Object.prototype];
  if (typeof EventTarget === 'function') out.push(EventTarget.prototype);
  return out;
}
