/**
 * Where the designer's time goes at 1,000 widgets (a companion of bench:designer, not a benchmark):
 * loads the bench page (tests/bench/designer-app, built as bench:designer builds it but unminified,
 * or a prebuilt copy in BENCH_APP_DIR), then
 * - open: a V8 CPU profile (Profiler domain) and a Chrome trace from navigation to every box drawn,
 *   printed as self time by function and by renderer step (script, style, layout, paint …);
 * - ops: a trace of real CDP input (clicks that select, Delete, Ctrl+D, Ctrl+Z), printed the same way,
 *   per op, with the share of each renderer step.
 * Env: BENCH_APP_DIR, PROFILE_N (1000), PROFILE_TRIES (10), PROFILE_OUT (a folder: the .cpuprofile and
 * trace .json files are kept there for DevTools), PROFILE_WHAT (open,select,delete,duplicate,undo).
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

function printTop(title: string, m: Map<string, number>, per = 1, top = 18) {
  const total = [...m.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${title} (ms${per > 1 ? ` per try, ${per} tries` : ''}; total ${(total / per).toFixed(1)})`);
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

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8'];

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
      for (let i = 0; i < TRIES; i++) {
        await op.before?.(i);
        await settle();
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
        const { self } = await traced(browser, page, `${name}-${i}`, async () => {
          await op.run();
          await painted();
        });
        const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
        for (const [k, v] of self) total.set(k, (total.get(k) ?? 0) + v);
        for (const [k, v] of profileSelf(profile).fns) js.set(k, (js.get(k) ?? 0) + v);
        await op.after?.();
        await settle();
      }
      printTop(`${name}: renderer main thread, self time by trace event`, total, TRIES);
      js.delete('(idle) :0:0');
      js.delete('(program) :0:0');
      printTop(`${name}: JS self time by function`, js, TRIES, 25);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
