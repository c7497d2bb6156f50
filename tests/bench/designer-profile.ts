/**
 * Where the designer's time goes at 1,000 widgets (a companion of bench:designer, not a benchmark):
 * loads the bench page (tests/bench/designer-app, built as bench:designer builds it but unminified,
 * or a prebuilt copy in BENCH_APP_DIR), then
 * - open: a V8 CPU profile (Profiler domain) and a Chrome trace from navigation to every box drawn,
 *   printed as self time by function and by renderer step (script, style, layout, paint …);
 * - ops: a trace of real CDP input (clicks that select, Delete, Ctrl+D, Ctrl+Z), printed the same way,
 *   per op, with the share of each renderer step.
 * - PROFILE_HEAP=1: what each op allocates, from V8's sampling heap profiler (HeapProfiler domain,
 *   objects a GC already collected included): bytes per try in all, and by allocating function (self)
 *   and by function with what it calls (total); the CPU profiler is off in that pass (load-insensitive
 *   figures: bytes, and the GC and main-thread ms per try from the trace).
 * Env: BENCH_APP_DIR, PROFILE_N (1000), PROFILE_TRIES (10), PROFILE_OUT (a folder: the .cpuprofile and
 * trace .json files are kept there for DevTools), PROFILE_WHAT (open,select,delete,duplicate,undo),
 * PROFILE_HEAP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { antdCss } from '../../scripts/vite-antd-css.ts';
import { oneDraggable } from '../../scripts/vite-one-draggable.ts';
import { scrollbarSizeCache } from '../../scripts/vite-scrollbar-cache.ts';
import { CHROMIUM, serveDir } from './kit.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const N = Number(process.env.PROFILE_N ?? 1000);
const TRIES = Number(process.env.PROFILE_TRIES ?? 10);
const OUT = process.env.PROFILE_OUT;
const WHAT = new Set((process.env.PROFILE_WHAT ?? 'open,select,delete,duplicate,undo').split(','));
const HEAP = !!process.env.PROFILE_HEAP;

async function appDir(): Promise<string> {
  if (process.env.BENCH_APP_DIR) return path.resolve(process.env.BENCH_APP_DIR);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'profile-designer-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(root, 'tests/bench/designer-app'),
    plugins: [react(), antdCss(), scrollbarSizeCache(), oneDraggable()],
    // Unminified: the profiles name the functions.
    build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 5000, minify: false },
  });
  return out;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

/** Self time (ms) per event name on the renderer's main thread, complete events only. */
function selfTimes(events: TraceEvent[]): Map<string, number> {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = events
    .filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: { e: TraceEvent; child: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= upTo) {
      const top = stack.pop()!;
      self.set(top.e.name, (self.get(top.e.name) ?? 0) + (top.e.dur! - top.child) / 1000);
      if (stack.length) stack.at(-1)!.child += top.e.dur!;
    }
  };
  for (const e of onMain) {
    close(e.ts);
    stack.push({ e, child: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return self;
}

function printTop(title: string, m: Map<string, number>, per = 1, top = 18, unit = 'ms') {
  const total = [...m.values()].reduce((a, b) => a + b, 0);
  // Inclusive figures overlap (a caller holds its callees'): no total for them.
  const sum = unit.endsWith('incl.') ? '' : `; total ${(total / per).toFixed(1)}`;
  console.log(`\n${title} (${unit}${per > 1 ? ` per try, ${per} tries` : ''}${sum})`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(v / per).toFixed(2).padStart(9)}  ${k}`);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) per function (and per script) from a V8 CPU profile. */
function profileSelf(p: CpuProfile): { fns: Map<string, number>; urls: Map<string, number> } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const fns = new Map<string, number>();
  const urls = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]!)!;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const f = n.callFrame;
    const file = f.url ? path.basename(f.url) : '';
    const key = `${f.functionName || '(anon)'} ${file}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + dt);
    urls.set(file || f.functionName, (urls.get(file || f.functionName) ?? 0) + dt);
  }
  return { fns, urls };
}

interface HeapNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: HeapNode[];
}

/** Bytes allocated by function: self (allocated in it) and total (in it and what it called). */
function heapBytes(head: HeapNode, self: Map<string, number>, total: Map<string, number>): number {
  const walk = (n: HeapNode, stack: Set<string>): number => {
    const f = n.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url ? path.basename(f.url) : ''}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    let sum = n.selfSize;
    self.set(key, (self.get(key) ?? 0) + n.selfSize);
    const inner = new Set(stack).add(key);
    for (const c of n.children) sum += walk(c, inner);
    // A recursive function counts its subtree once.
    if (!stack.has(key)) total.set(key, (total.get(key) ?? 0) + sum);
    return sum;
  };
  return walk(head, new Set());
}

/** Trace events that are garbage collection (V8's young and old generation, Blink's heap). */
const isGc = (name: string) => /GC|Scavenge|MarkCompact|Sweep/i.test(name);

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink',
  'v8',
  // Garbage collection (V8's young and old generation) as trace events of their own.
  'disabled-by-default-v8.gc',
];

async function traced<T>(browser: Browser, page: Page, name: string, run: () => Promise<T>) {
  await browser.startTracing(page, { categories: CATEGORIES });
  const value = await run();
  const buf = await browser.stopTracing();
  if (OUT) fs.writeFileSync(path.join(OUT, `${name}.trace.json`), buf);
  const parsed = JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] };
  return { value, self: selfTimes(parsed.traceEvents) };
}

const ready = (page: Page) =>
  page.waitForFunction(() => (window as unknown as { bench?: { ready(): boolean } }).bench?.ready(), null, {
    timeout: 120_000,
    polling: 'raf',
  });

async function main() {
  if (OUT) fs.mkdirSync(OUT, { recursive: true });
  const dir = await appDir();
  const server = await serveDir(dir);
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const url = `${base}/?kind=designer&n=${N}&tools=1`;
  const browser = await chromium.launch({ ...CHROMIUM });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript('globalThis.__name = (f) => f');
    // A first load warms the HTTP cache, as the bench's repeated opens are.
    await page.goto(url);
    await ready(page);
    await page.goto('about:blank');
    const cdp = await page.context().newCDPSession(page);
    if (WHAT.has('open')) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      const { value: open, self } = await traced(browser, page, 'open', async () => {
        await page.goto(url, { waitUntil: 'commit' });
        await ready(page);
        return page.evaluate(() => performance.now());
      });
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
      if (OUT) fs.writeFileSync(path.join(OUT, 'open.cpuprofile'), JSON.stringify(profile));
      console.log(`open: ${open.toFixed(0)} ms to every box drawn (main-thread figure, with tracing on)`);
      printTop('open: renderer main thread, self time by trace event', self);
      const { fns, urls } = profileSelf(profile);
      printTop('open: JS self time by function', fns, 1, 40);
      printTop('open: JS self time by script', urls, 1, 15);
    } else {
      await page.goto(url);
      await ready(page);
    }
    await page.waitForFunction(
      () => document.querySelectorAll('.dz-deferred, .dz-loading').length === 0,
      null,
      { timeout: 120_000, polling: 'raf' },
    );
    const settle = () =>
      page.evaluate(
        () =>
          new Promise<void>((r) =>
            requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => r(), 50))),
          ),
      );
    const target = (i: number) =>
      page.evaluate((j) => {
        const seen = [...document.querySelectorAll<HTMLElement>('.dz-item')].filter((el) => {
          const r = el.getBoundingClientRect();
          return (
            r.top > 40 &&
            r.top + 20 < innerHeight &&
            r.width > 40 &&
            !el.querySelector(':scope > .dz-chrome') &&
            document.elementFromPoint(r.left + 6, r.top + 4)?.closest('.dz-item') === el
          );
        });
        const el = seen[(j * 5 + 1) % seen.length]!;
        const r = el.getBoundingClientRect();
        return { x: r.left + 6, y: r.top + 4 };
      }, i);
    /** The input's work and the frame that shows it (after its paint): what input to paint covers. */
    const painted = () =>
      page.evaluate(
        () =>
          new Promise<void>((r) =>
            requestAnimationFrame(() => {
              const ch = new MessageChannel();
              ch.port1.onmessage = () => r();
              ch.port2.postMessage(0);
            }),
          ),
      );
    let at = { x: 0, y: 0 };
    const aim = async (i: number) => {
      at = await target(i);
    };
    const press = async () => {
      const { x, y } = at;
      await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
      await cdp.send('Input.dispatchMouseEvent', {
        type: 'mousePressed',
        x,
        y,
        button: 'left',
        clickCount: 1,
      });
      await cdp.send('Input.dispatchMouseEvent', {
        type: 'mouseReleased',
        x,
        y,
        button: 'left',
        clickCount: 1,
      });
    };
    const click = async (i: number) => {
      await aim(i);
      await press();
      await settle();
    };
    const ops: Record<
      string,
      { before?: (i: number) => Promise<void>; run: () => Promise<void>; after?: () => Promise<void> }
    > = {
      select: { before: aim, run: press },
      delete: {
        before: click,
        run: () => page.keyboard.press('Delete'),
        after: () => page.keyboard.press('Control+z'),
      },
      duplicate: {
        before: click,
        run: () => page.keyboard.press('Control+d'),
        after: () => page.keyboard.press('Control+z'),
      },
      undo: {
        before: async (i) => {
          await click(i);
          await page.keyboard.press('Control+d');
        },
        run: () => page.keyboard.press('Control+z'),
      },
    };
    if (process.env.PROFILE_CSS) await page.addStyleTag({ content: process.env.PROFILE_CSS });
    if (WHAT.has('hover')) {
      // The pointer moved over 20 widgets: each move repaints one outline (the cost of any frame).
      const total = new Map<string, number>();
      for (let i = 0; i < 20; i++) {
        await aim(i);
        await settle();
        const { self } = await traced(browser, page, `hover-${i}`, async () => {
          await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
          await painted();
        });
        for (const [k, v] of self) total.set(k, (total.get(k) ?? 0) + v);
      }
      printTop('hover: renderer main thread, self time by trace event', total, 20, 12);
    }
    for (const [name, op] of Object.entries(ops)) {
      if (!WHAT.has(name)) continue;
      const total = new Map<string, number>();
      const js = new Map<string, number>();
      const heapSelf = new Map<string, number>();
      const heapTotal = new Map<string, number>();
      const bytes: number[] = [];
      const gcMs: number[] = [];
      const mainMs: number[] = [];
      for (let i = 0; i < TRIES; i++) {
        await op.before?.(i);
        await settle();
        if (HEAP) {
          await cdp.send('HeapProfiler.enable');
          // Every 4 KB on average; objects collected before the stop are kept in the profile.
          await cdp.send('HeapProfiler.startSampling', {
            samplingInterval: 4096,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
          } as never);
        } else {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
          await cdp.send('Profiler.start');
        }
        const { self } = await traced(browser, page, `${name}-${i}`, async () => {
          await op.run();
          await painted();
        });
        if (HEAP) {
          const { profile } = (await cdp.send('HeapProfiler.stopSampling')) as unknown as {
            profile: { head: HeapNode };
          };
          if (OUT) fs.writeFileSync(path.join(OUT, `${name}-${i}.heapprofile`), JSON.stringify(profile));
          bytes.push(heapBytes(profile.head, heapSelf, heapTotal));
        } else {
          const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
          for (const [k, v] of profileSelf(profile).fns) js.set(k, (js.get(k) ?? 0) + v);
        }
        for (const [k, v] of self) total.set(k, (total.get(k) ?? 0) + v);
        gcMs.push([...self].filter(([k]) => isGc(k)).reduce((a, [, v]) => a + v, 0));
        mainMs.push([...self.values()].reduce((a, b) => a + b, 0));
        await op.after?.();
        await settle();
      }
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
      const list = (xs: number[], d = 1) => xs.map((x) => x.toFixed(d)).join(' ');
      console.log(
        `\n${name}: per try, main thread ms (median ${med(mainMs).toFixed(1)}): ${list(mainMs)}; GC ms (median ${med(gcMs).toFixed(1)}): ${list(gcMs)}`,
      );
      if (HEAP)
        console.log(
          `${name}: KB allocated per try (sampled; median ${(med(bytes) / 1024).toFixed(0)}): ${list(
            bytes.map((b) => b / 1024),
            0,
          )}`,
        );
      printTop(`${name}: renderer main thread, self time by trace event`, total, TRIES);
      if (HEAP) {
        const kb = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, v / 1024]));
        printTop(`${name}: allocated by function, self`, kb(heapSelf), TRIES, 30, 'KB');
        printTop(`${name}: allocated by function, with what it calls`, kb(heapTotal), TRIES, 40, 'KB incl.');
      } else {
        js.delete('(idle) :0:0');
        js.delete('(program) :0:0');
        printTop(`${name}: JS self time by function`, js, TRIES, 25);
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
