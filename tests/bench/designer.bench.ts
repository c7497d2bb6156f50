/**
 * bench:designer — the designer canvas at 100 / 500 / 1,000 widgets against a bare react-grid-layout
 * page of the same number of plain boxes (the baseline), built and measured in the same run, in
 * headless Chromium driven by Playwright.
 *
 * The page (tests/bench/designer-app) is a production Vite build served from a local static server.
 * Figures:
 * - open: navigation start → every widget's box drawn, the views of those in or near the viewport
 *   rendered with their code loaded (the builder can work): performance.now().
 * - complete: navigation start → every widget's view rendered (the designer fills in the views of
 *   widgets far from the viewport right after the first paint). Operations are timed after this.
 * - select, edit (property), move (keyboard nudge command), delete, duplicate, paste of 50, undo,
 *   redo: main-thread time of one operation = the call + React's render task + a forced style and
 *   layout, timed in the page with performance.now(); p95 over BENCH_TRIES (20) tries. A try that
 *   adds or removes widgets is undone afterwards (untimed), so every try — and the drag — runs on a
 *   page of the stated size.
 * - drag: a widget dragged across the grid by synthetic mouse events (react-draggable listens on the
 *   document), same measure per mouse step (handler + render + layout); p95 over the steps.
 * Long tasks (PerformanceObserver 'longtask', > 50 ms) seen during each phase are counted too.
 *
 * Env: BENCH_SIZES (100,500,1000) BENCH_TRIES (20) BENCH_DRAG_N (500) CHROMIUM_PATH
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { antdCss } from '../../scripts/vite-antd-css.ts';
import { oneDraggable } from '../../scripts/vite-one-draggable.ts';
import { scrollbarSizeCache } from '../../scripts/vite-scrollbar-cache.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SIZES = (process.env.BENCH_SIZES ?? '100,500,1000').split(',').map(Number);
const TRIES = Number(process.env.BENCH_TRIES ?? 20);
const DRAG_N = Number(process.env.BENCH_DRAG_N ?? 500);
const OPS = ['select', 'edit', 'move', 'delete', 'duplicate', 'paste50', 'undo', 'redo'] as const;
/** Ops that change how many widgets there are: each try is undone (untimed) to keep the stated size. */
const RESTORE = new Set<string>(['delete', 'duplicate', 'paste50', 'redo']);

async function buildApp(): Promise<string> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-designer-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(root, 'tests/bench/designer-app'),
    plugins: [react(), antdCss(), scrollbarSizeCache(), oneDraggable()],
    build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  });
  return out;
}

function serve(dir: string): Promise<http.Server> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const file = path.join(dir, url.pathname === '/' ? 'index.html' : url.pathname);
    if (!file.startsWith(dir) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? Number.NaN;
};

interface Result {
  open: number;
  complete: number;
  ops: Record<string, number>;
  drag?: number;
  longTasks: number;
}

/** Installed in the page: times one operation to the end of React's render and a forced layout. */
const HARNESS = () => {
  const w = window as unknown as {
    bench: { ops: Record<string, (i: number) => void> };
    timeOp: (name: string, i: number) => Promise<number>;
    longTasks: number;
    drag: (steps: number) => Promise<number[]>;
  };
  w.longTasks = 0;
  new PerformanceObserver((l) => {
    w.longTasks += l.getEntries().length;
  }).observe({ type: 'longtask', buffered: true });
  const flush = () =>
    new Promise<void>((r) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => r();
      ch.port2.postMessage(0);
    });
  const settle = async () => {
    await flush();
    void document.body.getBoundingClientRect();
  };
  w.timeOp = async (name, i) => {
    await settle();
    const t0 = performance.now();
    w.bench.ops[name]!(i);
    await settle();
    return performance.now() - t0;
  };
  w.drag = async (steps) => {
    const el = document.querySelectorAll<HTMLElement>('.dz-item')[12]!;
    el.scrollIntoView({ block: 'center' });
    const r = el.getBoundingClientRect();
    const at = (dx: number, dy: number) => ({
      bubbles: true,
      cancelable: true,
      clientX: r.left + 20 + dx,
      clientY: r.top + 10 + dy,
      button: 0,
      buttons: 1,
    });
    el.dispatchEvent(new MouseEvent('mousedown', at(0, 0)));
    await settle();
    const times: number[] = [];
    for (let s = 1; s <= steps; s++) {
      const t0 = performance.now();
      document.dispatchEvent(new MouseEvent('mousemove', at(s * 3, s * 2)));
      await settle();
      times.push(performance.now() - t0);
    }
    document.dispatchEvent(new MouseEvent('mouseup', at(steps * 3, steps * 2)));
    await settle();
    return times;
  };
};

async function measure(page: Page, base: string, kind: string, n: number, drag: boolean): Promise<Result> {
  await page.goto(`${base}/?kind=${kind}&n=${n}${process.env.BENCH_QUERY ?? ''}`);
  await page.waitForFunction(
    () => (window as unknown as { bench?: { ready(): boolean } }).bench?.ready(),
    null,
    {
      timeout: 120_000,
      polling: 'raf',
    },
  );
  const open = await page.evaluate(() => performance.now());
  await page.waitForFunction(
    () => document.querySelectorAll('.dz-deferred, .dz-loading').length === 0,
    null,
    { timeout: 120_000, polling: 'raf' },
  );
  const complete = await page.evaluate(() => performance.now());
  await page.evaluate(HARNESS);
  const ops: Record<string, number> = {};
  for (const op of OPS) {
    const times: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      if (op === 'paste50')
        await page.evaluate(
          (j) =>
            (window as unknown as { timeOp: (n: string, i: number) => Promise<number> }).timeOp('copy50', j),
          i,
        );
      if (op === 'undo' || op === 'redo') {
        // Something to undo: one edit first (not timed), then undo it (and redo it).
        await page.evaluate(
          (j) =>
            (window as unknown as { timeOp: (n: string, i: number) => Promise<number> }).timeOp(
              'duplicate',
              j,
            ),
          i,
        );
        if (op === 'redo')
          await page.evaluate(() =>
            (window as unknown as { timeOp: (n: string, i: number) => Promise<number> }).timeOp('undo', 0),
          );
      }
      if (op === 'move' || op === 'edit')
        await page.evaluate(
          (j) =>
            (window as unknown as { timeOp: (n: string, i: number) => Promise<number> }).timeOp('select', j),
          i,
        );
      times.push(
        await page.evaluate(
          ([name, j]) =>
            (window as unknown as { timeOp: (n: string, i: number) => Promise<number> }).timeOp(
              name as string,
              j as number,
            ),
          [op, i] as const,
        ),
      );
      if (RESTORE.has(op))
        await page.evaluate(() =>
          (window as unknown as { timeOp: (n: string, i: number) => Promise<number> }).timeOp('undo', 0),
        );
    }
    ops[op] = p95(times);
  }
  const count = await page.evaluate(() =>
    (window as unknown as { bench: { count(): number } }).bench.count(),
  );
  if (count !== n) console.warn(`(${kind}: ${count} widgets after the ops, not ${n})`);
  const result: Result = { open, complete, ops, longTasks: 0 };
  if (drag)
    result.drag = p95(
      await page.evaluate(() => (window as unknown as { drag: (s: number) => Promise<number[]> }).drag(40)),
    );
  result.longTasks = await page.evaluate(() => (window as unknown as { longTasks: number }).longTasks);
  return result;
}

const fmt = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(1).padStart(8));
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined ? '' : `${(a / b).toFixed(2)}×`.padStart(7);

async function main() {
  console.log('bench:designer — building the bench page…');
  const dir = await buildApp();
  const server = await serve(dir);
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    for (const n of SIZES) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      // tsx keeps function names with a helper the page does not have; give it one.
      await page.addInitScript('globalThis.__name = (f) => f');
      const ours = await measure(page, base, 'designer', n, n === DRAG_N);
      const bare = await measure(page, base, 'baseline', n, n === DRAG_N);
      await page.close();
      console.log(`\n${n} widgets (ms; ops and drag = p95 of ${TRIES} tries / 40 drag steps)`);
      console.log(
        `${'figure'.padEnd(12)}${'designer'.padStart(9)}${'baseline'.padStart(9)}${'ratio'.padStart(8)}`,
      );
      const row = (name: string, a: number | undefined, b: number | undefined) =>
        console.log(`${name.padEnd(12)}${fmt(a)} ${fmt(b)}${ratio(a, b)}`);
      row('open', ours.open, bare.open);
      row('complete', ours.complete, bare.complete);
      for (const op of OPS) row(op, ours.ops[op], bare.ops[op]);
      if (ours.drag !== undefined) row('drag step', ours.drag, bare.drag);
      console.log(`long tasks (>50 ms) seen: designer ${ours.longTasks}, baseline ${bare.longTasks}`);
    }
    console.log('\nGoals: open ≤ 2000 ms at 1,000; each op ≤ 50 ms at 1,000; drag step ≤ 16 ms at 500.');
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
