/**
 * The sandbox bridge: builder code in the worker (the real sandbox-worker.ts, run in this process
 * behind a fake `self`) calls `api.*`; the page side (Sandbox + script host) carries the calls out
 * through a recording action host and the end-user data calls (answered by a stubbed fetch). The
 * time limit is tested against a scripted worker (a real busy loop cannot be stopped in-process;
 * the browser test covers that).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../../../tests/helpers/memory-storage.ts';
import { pickText, SCRIPT_API_LOCAL, SCRIPT_API_MEMBERS } from '../../shared/script-api.ts';
import type { ActionHost, ModalRequest } from './actions.ts';
import { onEntityChanged } from './data-source.ts';
import { HEARTBEAT_MS, Sandbox, type SandboxHost, SETUP_DEBOUNCE_MS } from './sandbox.ts';
import type { SandboxWorker } from './sandbox-frame.ts';
import { API_METHODS, type FromWorker, type ToWorker } from './sandbox-protocol.ts';
import { createScriptHost, scriptUser } from './script-host.ts';

// ---- the worker, in process -----------------------------------------------------------------

type Listener = (e: { data: unknown }) => void;
const workerSide: Listener[] = [];
let toPage: ((m: FromWorker) => void) | null = null;
const fakeSelf = Object.assign(Object.create(null) as Record<string, unknown>, {
  addEventListener: (type: string, l: Listener) => {
    if (type === 'message') workerSide.push(l);
  },
  postMessage: (m: FromWorker) => setTimeout(() => toPage?.(structuredClone(m)), 0),
});

/** A Worker whose other end is the in-process sandbox-worker.ts. */
class InProcessWorker {
  private listeners: Listener[] = [];
  constructor() {
    toPage = (m) => {
      for (const l of this.listeners) l({ data: m });
    };
  }
  addEventListener(type: string, l: Listener) {
    if (type === 'message') this.listeners.push(l);
  }
  postMessage(m: ToWorker) {
    setTimeout(() => {
      for (const l of workerSide) l({ data: structuredClone(m) });
    }, 0);
  }
  terminate() {
    toPage = null;
  }
}

beforeAll(async () => {
  // The worker module reads `self` when loaded and whenever it posts: it stays for this file.
  (globalThis as Record<string, unknown>).self = fakeSelf;
  await import('./sandbox-worker.ts');
});
afterAll(() => {
  delete (globalThis as Record<string, unknown>).self;
});

// ---- the page side ------------------------------------------------------------------------------

/** A page's action host that records what it was asked; scope is live. */
function page() {
  const log: unknown[][] = [];
  const state: Record<string, unknown> = { count: 1 };
  const widgets: Record<string, unknown> = { table: { rows: [{ _id: 'r1' }], total: 1 }, name: 'Ann' };
  const modals: ModalRequest[] = [];
  const host: ActionHost = {
    scope: () => ({
      user: { _id: 'u1', account: 'ann01', nickname: 'Ann', phone: '13800000000' },
      params: { id: 'p1' },
      state: { ...state },
      widgets: { ...widgets },
    }),
    openPage: (...a) => void log.push(['openPage', ...a]),
    openModal: (req) => {
      log.push(['openModal', req.page, req.params, req.width]);
      modals.push(req);
    },
    closeModal: (r) => void log.push(['closeModal', r]),
    navigate: (url, replace) => {
      if (!url.startsWith('/') && !url.startsWith('https://')) throw new Error('navigate: unsafe URL');
      log.push(['navigate', url, replace]);
    },
    runProgram: async (...a) => {
      log.push(['runProgram', ...a]);
      return { ok: 1 };
    },
    refreshWidget: (w) => void log.push(['refreshWidget', w]),
    setValue: (target, value) => {
      log.push(['setValue', target, value]);
      if (target.startsWith('state.')) state[target.slice(6)] = value;
      else widgets[target] = value;
    },
    submitForm: async (...a) => void log.push(['submitForm', ...a]),
    notify: (...a) => void log.push(['notify', ...a]),
    runCode: async (c) => void log.push(['runCode', c]),
  };
  return { host, log, modals, script: createScriptHost({ project: 'p1', host, lang: () => 'zh' }) };
}

/** The data calls' server: answers by URL suffix, records method-less URLs and bodies sent. */
function server(answers: Record<string, unknown>) {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const hit = Object.entries(answers).find(([suffix]) => url.endsWith(suffix));
      return new Response(JSON.stringify(hit ? hit[1] : { error: 1003, msg: `not found: ${url}` }));
    }),
  );
  return sent;
}

describe('the declared API', () => {
  it('is implemented in full: page methods plus the members the sandbox answers itself', () => {
    expect([...API_METHODS, ...SCRIPT_API_LOCAL].sort()).toEqual([...SCRIPT_API_MEMBERS].sort());
  });

  it('api.t picks the user language, else English, else Chinese, and fills {name}', () => {
    expect(pickText({ zh: '你好，{name}', en: 'Hello, {name}' }, 'zh', { name: '安' })).toBe('你好，安');
    expect(pickText({ zh: '你好', en: 'Hello' }, 'jp')).toBe('Hello');
    expect(pickText({ zh: '你好' }, 'en')).toBe('你好');
    expect(pickText({ en: 'Hi {who}' }, 'en', {})).toBe('Hi {who}');
    expect(pickText(null, 'en')).toBe('');
  });

  it('api.user has the declared shape; no user is null', () => {
    expect(scriptUser({ _id: 'u1', account: 'ann01', nickname: 'Ann', phone: null })).toEqual({
      _id: 'u1',
      user: 'ann01',
      nickname: 'Ann',
    });
    expect(scriptUser(null)).toBeNull();
  });
});

describe('builder code through the worker', () => {
  let sb: Sandbox;
  beforeEach(() => {
    const storage = memoryStorage();
    storage.setItem('lc_raw', '1');
    vi.stubGlobal('localStorage', storage);
    sb = new Sandbox({ createWorker: () => new InProcessWorker() as unknown as Worker });
  });
  afterEach(() => {
    sb.dispose();
    vi.unstubAllGlobals();
  });

  it('reads and sets values, refreshes, navigates, opens pages, runs actions and programs', async () => {
    const p = page();
    await sb.run(
      `
      api.notify(api.t({ zh: '你好 {n}', en: 'hi {n}' }, { n: api.user.nickname }) + ' ' + api.lang, 'success');
      await api.setValue('state.count', api.state.count + 41);
      await api.setValue('name', 'Bob');
      const got = [await api.getValue('state.count'), await api.getValue('name'), (await api.getValue('table')).total];
      api.notify(JSON.stringify(got) + ' ' + api.params.id);
      await api.refresh('table');
      await api.navigate('/page/abc');
      await api.openPage('p2', { id: 'r1' }, 'blank');
      await api.closeModal({ done: true });
      await api.runAction([{ type: 'notify', level: 'info', message: 'from an action {{ state.count }}' }]);
      const result = await api.runProgram('prog', { a: 1 });
      api.notify('program ' + result.ok);
      `,
      p.script,
    );
    expect(p.log).toEqual([
      ['notify', 'success', '你好 Ann zh'],
      ['setValue', 'state.count', 42],
      ['setValue', 'name', 'Bob'],
      ['notify', 'info', '[42,"Bob",1] p1'],
      ['refreshWidget', 'table'],
      ['navigate', '/page/abc', false],
      ['openPage', 'p2', { id: 'r1' }, 'blank'],
      ['closeModal', { done: true }],
      ['notify', 'info', 'from an action 42', undefined],
      ['runProgram', 'prog', { a: 1 }],
      ['notify', 'info', 'program 1'],
    ]);
  });

  it('openModal resolves with what the modal closed with', async () => {
    const p = page();
    const run = sb.run(
      `const r = await api.openModal('detail', { id: 'r1' }); api.notify('closed with ' + JSON.stringify(r));`,
      p.script,
    );
    await vi.waitFor(() => expect(p.modals).toHaveLength(1));
    expect(p.log[0]).toEqual(['openModal', 'detail', { id: 'r1' }, 600]);
    p.modals[0]!.onClose?.({ saved: 'r9' });
    await run;
    expect(p.log.at(-1)).toEqual(['notify', 'info', 'closed with {"saved":"r9"}']);
  });

  it('saves, updates, removes and queries through the end-user data calls; open pages hear of it', async () => {
    const sent = server({
      '/customer/save': { error: 0, data: { _id: 'n1', name: 'Cy' } },
      '/customer/n1/update': { error: 0, data: { _id: 'n1', name: 'Cyd' } },
      '/customer/n1/remove': { error: 0, data: null },
      '/customer/query': { error: 0, data: { data: [{ _id: 'r1' }], count: 1 } },
      '/secret/save': { error: 1201, msg: 'no permission' },
    });
    const changed: string[] = [];
    const stop = onEntityChanged((project, entity) => changed.push(`${project}/${entity}`));
    const p = page();
    await sb.run(
      `
      const saved = await api.save('customer', { name: 'Cy' });
      const updated = await api.update('customer', saved._id, { name: 'Cyd' });
      await api.remove('customer', saved._id);
      const rows = await api.query('customer', { page: { index: 1, size: 5 }, count: true });
      let refused = '';
      try { await api.save('secret', { x: 1 }); } catch (e) { refused = e.message; }
      api.notify([saved._id, updated.name, rows.count, refused].join(' | '));
      `,
      p.script,
    );
    stop();
    expect(sent.map((s) => s.url)).toEqual([
      '/api/app/simple/p1/customer/save',
      '/api/app/simple/p1/customer/n1/update',
      '/api/app/simple/p1/customer/n1/remove',
      '/api/app/simple/p1/customer/query',
      '/api/app/simple/p1/secret/save',
    ]);
    expect(sent[1]!.body).toEqual({ name: 'Cyd' });
    expect(sent[3]!.body).toEqual({ page: { index: 1, size: 5 }, count: true });
    expect(p.log).toEqual([['notify', 'info', 'n1 | Cyd | 1 | 1201: no permission']]);
    expect(changed).toEqual(['p1/customer', 'p1/customer', 'p1/customer']);
  });

  it('bad calls reject with a clear message and change nothing', async () => {
    const p = page();
    await sb.run(
      `
      const errors = [];
      for (const f of [() => api.navigate('javascript:alert(1)'), () => api.update('customer', '', {}), () => api.openModal('')])
        try { await f(); } catch (e) { errors.push(e.message); }
      api.notify(errors.join(' / '));
      `,
      p.script,
    );
    expect(p.log).toEqual([
      ['notify', 'info', 'navigate: unsafe URL / api.update: id is missing / api.openModal: page is missing'],
    ]);
  });

  it('a failing action rejects api.runAction without a notice of its own (one notice, not two)', async () => {
    const p = page();
    await expect(
      sb.run(`await api.runAction({ type: 'navigate', url: 'javascript:x' });`, p.script),
    ).rejects.toThrow(/navigate: unsafe or empty URL/);
    // Uncaught: the code command that ran the script reports it (once, see actions.test).
    expect(p.log).toEqual([]);
    // Caught: the script decides; nothing is shown behind its back.
    await sb.run(
      `try { await api.runAction({ type: 'navigate', url: 'javascript:x' }); } catch (e) { api.notify('handled: ' + e.message); }`,
      p.script,
    );
    expect(p.log).toEqual([['notify', 'info', 'handled: navigate: unsafe or empty URL']]);
  });

  it('the setup script runs first, once, and code commands see what it defined', async () => {
    const p = page();
    sb.setup(`globalThis.greet = (n) => 'hello ' + n; await api.setValue('state.count', 7);`, p.script);
    await sb.run(`api.notify(greet(await api.getValue('state.count')));`, p.script);
    await sb.run(`api.notify('again');`, p.script);
    expect(p.log).toEqual([
      ['setValue', 'state.count', 7],
      ['notify', 'info', 'hello 7'],
      ['notify', 'info', 'again'],
    ]);
  });
});

// ---- time limit ---------------------------------------------------------------------------------

/** A worker that runs nothing by itself: the test says what it answers, and whether it answers pings. */
class ScriptedWorker {
  listeners: Listener[] = [];
  crashListeners: (() => void)[] = [];
  sent: ToWorker[] = [];
  terminated = false;
  answerPings = true;
  addEventListener(type: string, l: Listener) {
    if (type === 'message') this.listeners.push(l);
    if (type === 'crash') this.crashListeners.push(() => l({ data: null }));
  }
  /** Whether the frame still answers its pings (FramedWorker.responsive). */
  alive = true;
  responsive() {
    return this.alive;
  }
  /** The frame's process died (as FramedWorker reports it). */
  crash() {
    for (const l of this.crashListeners) l();
  }
  postMessage(m: ToWorker) {
    this.sent.push(m);
    if (m.type === 'ping' && this.answerPings) this.emit({ type: 'pong', ping: m.ping });
  }
  terminate() {
    this.terminated = true;
  }
  emit(m: FromWorker) {
    for (const l of this.listeners) l({ data: m });
  }
}

describe('time limit', () => {
  let worker: ScriptedWorker;
  let sb: Sandbox;
  const host = (over: Partial<SandboxHost> = {}): SandboxHost => ({
    context: () => ({ user: null, params: {}, state: {}, lang: 'en' }),
    call: () => null,
    ...over,
  });
  beforeEach(() => {
    vi.useFakeTimers();
    worker = new ScriptedWorker();
    sb = new Sandbox({ timeLimitMs: 5000, createWorker: () => worker as unknown as Worker });
  });
  afterEach(() => {
    sb.dispose();
    vi.useRealTimers();
  });

  it('stops a run that does not finish in time', async () => {
    const run = sb.run('while (true) {}', host());
    const failed = expect(run).rejects.toThrow('code ran longer than 5 s and was stopped');
    await vi.advanceTimersByTimeAsync(5001);
    await failed;
    expect(worker.terminated).toBe(true);
  });

  it('does not count the time a modal is open while the worker stays responsive', async () => {
    let close: (v: unknown) => void = () => {};
    const run = sb.run('…', host({ call: () => new Promise((r) => (close = r)) }));
    await vi.advanceTimersByTimeAsync(1000);
    const { run: id } = worker.sent[0] as { run: number };
    worker.emit({ type: 'call', run: id, call: 1, method: 'openModal', args: ['detail'] });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(worker.terminated).toBe(false);
    expect(worker.sent.filter((m) => m.type === 'ping').length).toBeGreaterThanOrEqual(25);
    close({ ok: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(worker.sent.at(-1)).toEqual({ type: 'reply', call: 1, ok: true, value: { ok: 1 } });
    // The clock runs again from where it stopped: 1 s used, 4 s left.
    const failed = expect(run).rejects.toThrow('code ran longer than 5 s');
    await vi.advanceTimersByTimeAsync(4001);
    await failed;
  });

  it('stops code that keeps the worker busy while it waits for a modal', async () => {
    const run = sb.run('…', host({ call: () => new Promise(() => {}) }));
    const failed = expect(run).rejects.toThrow('code did not respond for 5 s and was stopped');
    await vi.advanceTimersByTimeAsync(0);
    const { run: id } = worker.sent[0] as { run: number };
    worker.answerPings = false;
    worker.emit({ type: 'call', run: id, call: 1, method: 'openModal', args: ['detail'] });
    await vi.advanceTimersByTimeAsync(5000 + 2 * HEARTBEAT_MS);
    await failed;
    expect(worker.terminated).toBe(true);
  });
});

// ---- crashes ------------------------------------------------------------------------------------

describe("crashes (the sandbox frame's process died)", () => {
  let workers: ScriptedWorker[];
  let errors: string[];
  let sb: Sandbox;
  const host: SandboxHost = {
    context: () => ({ user: null, params: {}, state: {}, lang: 'en' }),
    call: () => null,
  };
  const runs = (w: ScriptedWorker) =>
    w.sent.filter((m): m is Extract<ToWorker, { type: 'run' }> => m.type === 'run');
  /** Answers `done` for the run of `code` in the i-th worker (looked up once it exists). */
  const finish = async (i: number, code: string) => {
    await vi.advanceTimersByTimeAsync(0);
    const w = workers[i]!;
    const run = runs(w).find((m) => m.code === code);
    expect(run, code).toBeDefined();
    w.emit({ type: 'done', run: run!.run, ok: true });
    await vi.advanceTimersByTimeAsync(0);
  };
  beforeEach(() => {
    vi.useFakeTimers();
    workers = [];
    errors = [];
    sb = new Sandbox({
      createWorker: () => {
        const w = new ScriptedWorker();
        workers.push(w);
        return w as unknown as SandboxWorker;
      },
    });
    sb.onError = (m) => errors.push(m);
  });
  afterEach(() => {
    sb.dispose();
    vi.useRealTimers();
  });

  it('fail the running code with the stopped notice; the next run starts afresh, without setup', async () => {
    sb.setup('setup()', host);
    const first = sb.run('first()', host);
    await vi.advanceTimersByTimeAsync(SETUP_DEBOUNCE_MS);
    await finish(0, 'setup()');
    expect(runs(workers[0]!).map((m) => m.code)).toEqual(['setup()', 'first()']);
    const failed = expect(first).rejects.toMatchObject({
      kind: 'crashed',
      message: expect.stringMatching(/^The page's code stopped \(it ran out of memory or crashed\)/),
    });
    workers[0]!.crash();
    await failed;
    expect(workers[0]!.terminated).toBe(true);
    // The failed run's runner shows the notice: not a second one from here.
    expect(errors).toEqual([]);
    const second = sb.run('second()', host);
    await finish(1, 'second()');
    await second;
    expect(runs(workers[1]!).map((m) => m.code)).toEqual(['second()']);
    // And it stays so for later runs.
    const third = sb.run('third()', host);
    await finish(1, 'third()');
    await third;
    expect(workers).toHaveLength(2);
  });

  it('a crash while nothing runs is told once through onError', async () => {
    const a = sb.run('a()', host);
    await vi.advanceTimersByTimeAsync(0);
    await finish(0, 'a()');
    await a;
    workers[0]!.crash();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^The page's code stopped/);
    // A crash report from a worker already replaced changes nothing.
    workers[0]!.crash();
    expect(errors).toHaveLength(1);
  });

  it('a crash during setup is told once (by the setup run), and setup is not tried again', async () => {
    sb.setup('setup()', host);
    await vi.advanceTimersByTimeAsync(SETUP_DEBOUNCE_MS);
    expect(runs(workers[0]!).map((m) => m.code)).toEqual(['setup()']);
    workers[0]!.crash();
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toHaveLength(1);
    const next = sb.run('next()', host);
    await finish(1, 'next()');
    await next;
    expect(runs(workers[1]!).map((m) => m.code)).toEqual(['next()']);
  });

  it('a run whose time is up while the frame no longer answers is told as a crash, once', async () => {
    const first = sb.run('first()', host);
    await vi.advanceTimersByTimeAsync(0);
    // The process died before the crash beats ran out: the time limit comes first.
    workers[0]!.alive = false;
    const failed = expect(first).rejects.toMatchObject({ kind: 'crashed' });
    await vi.advanceTimersByTimeAsync(5001);
    await failed;
    expect(errors).toEqual([]);
    const next = sb.run('next()', host);
    await finish(1, 'next()');
    await next;
  });

  it('unlike a crash, a time-out runs setup again before the next run', async () => {
    sb.setup('setup()', host);
    const slow = sb.run('slow()', host);
    const failed = expect(slow).rejects.toMatchObject({ kind: 'timeout' });
    await vi.advanceTimersByTimeAsync(SETUP_DEBOUNCE_MS);
    await finish(0, 'setup()');
    await vi.advanceTimersByTimeAsync(5001);
    await failed;
    const next = sb.run('next()', host);
    await vi.advanceTimersByTimeAsync(SETUP_DEBOUNCE_MS);
    await finish(1, 'setup()');
    await finish(1, 'next()');
    await next;
    expect(runs(workers[1]!).map((m) => m.code)).toEqual(['setup()', 'next()']);
  });
});
