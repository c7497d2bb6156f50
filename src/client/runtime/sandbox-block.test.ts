/**
 * Blocking the sandbox's doors acts on the global object (and its own interface prototype) only:
 * ordinary objects keep working with fields named like the doors (issue #17, item 4). The fake global
 * is shaped like Chromium's worker scope: XMLHttpRequest and friends own properties of the global;
 * fetch, importScripts, indexedDB and navigator on WorkerGlobalScope.prototype; then
 * EventTarget.prototype and Object.prototype.
 */
import { describe, expect, it } from 'vitest';
import { BLOCKED_GLOBALS, blockGlobals } from './sandbox-block.ts';

function fakeWorkerScope() {
  class FakeEventTarget {
    addEventListener() {}
  }
  class WorkerGlobalScope extends FakeEventTarget {
    importScripts() {}
    get navigator() {
      return { sendBeacon: () => true };
    }
  }
  const proto = WorkerGlobalScope.prototype as unknown as Record<string, unknown>;
  Object.defineProperty(proto, 'fetch', { value: () => 'fetched', configurable: true, writable: true });
  Object.defineProperty(proto, 'indexedDB', { get: () => ({}), configurable: true });
  const global = new WorkerGlobalScope() as unknown as Record<string, unknown>;
  for (const name of ['XMLHttpRequest', 'WebSocket', 'EventSource', 'Worker', 'caches', 'BroadcastChannel']) {
    Object.defineProperty(global, name, { value: class {}, configurable: true, writable: true });
  }
  return { global, proto, FakeEventTarget };
}

describe('blockGlobals', () => {
  it('hides every door on the global, also those its own prototype holds', () => {
    const { global, proto, FakeEventTarget } = fakeWorkerScope();
    blockGlobals(global, BLOCKED_GLOBALS, [Object.prototype, FakeEventTarget.prototype]);
    for (const name of BLOCKED_GLOBALS) {
      expect(global[name], name).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(global, name)).toMatchObject({
        value: undefined,
        writable: false,
        configurable: false,
      });
    }
    // No getter or method is left on the prototype to call on the global again.
    for (const name of ['fetch', 'importScripts', 'indexedDB', 'navigator']) {
      expect(Object.hasOwn(proto, name), name).toBe(false);
    }
    expect(() => {
      global.fetch = () => 'again';
    }).toThrow(TypeError);
    expect(global.fetch).toBeUndefined();
  });

  it('leaves ordinary objects alone: fields named fetch, navigator or caches work', () => {
    const { global, FakeEventTarget } = fakeWorkerScope();
    blockGlobals(global, BLOCKED_GLOBALS, [Object.prototype, FakeEventTarget.prototype]);
    const o: Record<string, unknown> = {};
    o.fetch = 1;
    o.navigator = 'nav';
    expect(o).toEqual({ fetch: 1, navigator: 'nav' });
    const record = { _id: 'r1', navigator: 'Ann', caches: 3, Worker: 'w', importScripts: 'x' };
    expect(Object.assign({}, record)).toEqual(record);
    expect({ ...record }).toEqual(record);
    // Other event targets (the shared prototype) keep their own fields too.
    const target = new FakeEventTarget() as unknown as Record<string, unknown>;
    target.caches = 'kept';
    expect(target.caches).toBe('kept');
    for (const name of BLOCKED_GLOBALS) {
      expect(Object.hasOwn(Object.prototype, name), name).toBe(false);
      expect(Object.hasOwn(FakeEventTarget.prototype, name), name).toBe(false);
    }
  });

  it('is safe to run twice (non-configurable names are left as they are)', () => {
    const { global, FakeEventTarget } = fakeWorkerScope();
    blockGlobals(global, BLOCKED_GLOBALS, [Object.prototype, FakeEventTarget.prototype]);
    expect(() =>
      blockGlobals(global, BLOCKED_GLOBALS, [Object.prototype, FakeEventTarget.prototype]),
    ).not.toThrow();
  });
});
