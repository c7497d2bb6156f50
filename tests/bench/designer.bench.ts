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
 * - input to paint (at BENCH_PAINT_N, 1,000): real input sent through the Chrome DevTools Protocol
 *   (Input.dispatchMouseEvent for clicks, Input.dispatchKeyEvent for keys, Input.dispatchDragEvent for
 *   a palette drop — Playwright's mouse/keyboard are those calls), from the input event's own time
 *   stamp (`event.timeStamp` of the mousedown / keydown / drop) to the paint of the first frame that
 *   shows the result: a requestAnimationFrame loop checks the DOM each frame, and a message posted from
 *   the frame that shows it runs after that frame's paint. p50 and p95 over BENCH_TRIES for select
 *   (click a widget: its selection chrome; "select + panel" also waits for the property panel of the
 *   new selection, which may finish in later frames), insert by drop (palette tile dragged onto the
 *   canvas), delete (Delete key), duplicate (Ctrl+D), undo (Ctrl+Z of a duplicate) and keystroke (one
 *   character typed into the selected widget's name field, until the canvas shows the new name); open =
 *   navigation start to the paint of the frame where every widget's box is drawn (BENCH_OPENS loads).
 *   The page here has the palette and the shortcuts mounted (`tools=1`); the baseline gets the same
 *   inputs (click to select, Delete, Ctrl+D, Ctrl+Z, a name field, a palette tile).
 *
 *   A try whose result does not show within PAINT_TIMEOUT_MS is reported and left out (it used to
 *   wait forever, and the run ended in "Target page closed"); target points, the drop's included,
 *   are checked to be on the widget and inside the viewport.
 *
 * Env: BENCH_SIZES (100,500,1000) BENCH_TRIES (20) BENCH_DRAG_N (500) BENCH_PAINT_N (1000; 0 = off)
 * BENCH_OPENS (5) BENCH_DIAG (1: print each phase and try of the input-to-paint pass) CHROMIUM_PATH
 * BENCH_APP_DIR (a bench page built before, e.g. from another commit with BENCH_BUILD_ONLY=dir: runs
 * of two builds alternated on a busy machine compare them in the same stretch of time)
 * BENCH_BUILD_ONLY (a folder: build the bench page there and stop)
 * Where the time goes: tests/bench/designer-profile.ts (CPU profile and trace of open and of each op).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { antdCss } from '../../scripts/vite-antd-css.ts';
import { oneDraggable } from '../../scripts/vite-one-draggable.ts';
import { scrollbarSizeCache } from '../../scripts/vite-scrollbar-cache.ts';

import { CHROMIUM, serveDir } from './kit.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SIZES = (process.env.BENCH_SIZES ?? '100,500,1000').split(',').filter(Boolean).map(Number);
const TRIES = Number(process.env.BENCH_TRIES ?? 20);
const DRAG_N = Number(process.env.BENCH_DRAG_N ?? 500);
const PAINT_N = Number(process.env.BENCH_PAINT_N ?? 1000);
const OPENS = Number(process.env.BENCH_OPENS ?? 5);
/** How long an input-to-paint try waits for its result before it counts as missed (never forever). */
const PAINT_TIMEOUT_MS = 10_000;
/** Where the palette tile is dropped, from the target widget's point. */
const DROP_DX = 40;
const DROP_DY = 10;
const OPS = ['select', 'edit', 'move', 'delete', 'duplicate', 'paste50', 'undo', 'redo'] as const;
/** Ops that change how many widgets there are: each try is undone (untimed) to keep the stated size. */
const RESTORE = new Set<string>(['delete', 'duplicate', 'paste50', 'redo']);

async function buildApp(): Promise<string> {
  const out = process.env.BENCH_BUILD_ONLY
    ? path.resolve(process.env.BENCH_BUILD_ONLY)
    : fs.mkdtempSync(path.join(os.tmpdir(), 'bench-designer-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(root, 'tests/bench/designer-app'),
    plugins: [react(), antdCss(), scrollbarSizeCache(), oneDraggable()],
    build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  });
  return out;
}

const pct = (q: number) => (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(s.length * q) - 1))] ?? Number.NaN;
};
const p95 = pct(0.95);
const p50 = pct(0.5);

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

/**
 * Installed in the page for the input-to-paint pass. `arm(check, arg)` starts a frame loop; the first
 * input event after it (capture phase, on window) stamps the start; the first frame whose DOM passes
 * the check ends it, after that frame's paint (a message posted from its requestAnimationFrame).
 */
const PAINT = () => {
  type Check = (arg: string) => boolean;
  const w = window as unknown as {
    paint: {
      arm(check: string, arg: string, on: string): void;
      done: Promise<number>;
      state(): unknown;
    };
  };
  const items = () => document.querySelectorAll('.dz-item').length;
  const item = (id: string) => document.querySelector(`.dz-item[data-wid="${id}"]`);
  const checks: Record<string, Check> = {
    // The designer's selection chrome, or the baseline's selected class.
    selected: (id) =>
      !!item(id)?.querySelector(':scope > .dz-chrome') || !!item(id)?.classList.contains('sel'),
    // The property panel shows the new selection (its name field is the widget's).
    panel: (id) =>
      !!document.querySelector(`[data-testid="widget-name"][placeholder="${id}"]`) &&
      !document.querySelector('[data-testid="inspector"][data-stale]'),
    gone: (id) => !item(id),
    count: (n) => items() === Number(n),
    named: (arg) => {
      const [id, text] = JSON.parse(arg) as [string, string];
      const el = item(id);
      return (el?.querySelector('.dz-tag') ?? el)?.textContent === text;
    },
  };
  let start = -1;
  let on = '';
  for (const type of ['mousedown', 'keydown', 'drop'])
    window.addEventListener(
      type,
      (e) => {
        if (start < 0 && e.type === on) start = e.timeStamp;
      },
      true,
    );
  w.paint = {
    done: Promise.resolve(0),
    // What a missed try saw: whether its input event came, the widget count, the focus.
    state: () => ({ inputSeen: start >= 0, on, items: items(), focus: document.activeElement?.tagName }),
    arm(check, arg, type) {
      start = -1;
      on = type;
      w.paint.done = new Promise((resolve) => {
        const tick = () =>
          requestAnimationFrame(() => {
            if (start >= 0 && checks[check]!(arg)) {
              const at = start;
              const ch = new MessageChannel();
              ch.port1.onmessage = () => resolve(performance.now() - at);
              ch.port2.postMessage(0);
            } else tick();
          });
        tick();
      });
    },
  };
};

interface PaintResult {
  open: number[];
  ops: Record<string, number[]>;
  /** Tries whose result never showed (PAINT_TIMEOUT_MS), by op: left out of the figures. */
  missed: Record<string, number>;
}

const PAINT_OPS = ['select', 'select + panel', 'drop', 'delete', 'duplicate', 'undo', 'keystroke'] as const;

/** Input to paint of real (CDP) input on a page of n widgets; see the header. */
async function measurePaint(page: Page, base: string, kind: string, n: number): Promise<PaintResult> {
  const url = `${base}/?kind=${kind}&n=${n}&tools=1${process.env.BENCH_QUERY ?? ''}`;
  const open: number[] = [];
  const ready = () =>
    page.waitForFunction(() => (window as unknown as { bench?: { ready(): boolean } }).bench?.ready(), null, {
      timeout: 120_000,
      polling: 'raf',
    });
  const diag = (what: string) => {
    if (process.env.BENCH_DIAG) console.warn(`(${new Date().toISOString()} ${kind}: ${what})`);
  };
  for (let k = 0; k < OPENS; k++) {
    diag(`open ${k}`);
    await page.goto('about:blank');
    await page.goto(url, { waitUntil: 'commit' });
    // The frame where every box is drawn (and the views near the viewport), after its paint.
    open.push(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const tick = () =>
              requestAnimationFrame(() => {
                if ((window as unknown as { bench?: { ready(): boolean } }).bench?.ready()) {
                  const ch = new MessageChannel();
                  ch.port1.onmessage = () => resolve(performance.now());
                  ch.port2.postMessage(0);
                } else tick();
              });
            tick();
          }),
      ),
    );
  }
  diag('opened');
  await ready();
  await page.waitForFunction(
    () => document.querySelectorAll('.dz-deferred, .dz-loading').length === 0,
    null,
    { timeout: 120_000, polling: 'raf' },
  );
  diag('complete');
  await page.evaluate(PAINT);
  const cdp = await page.context().newCDPSession(page);
  type Arm = [string, string, string];
  const arm = ([check, arg, on]: Arm) =>
    page.evaluate(
      ([c, a, o]) =>
        (window as unknown as { paint: { arm(c: string, a: string, o: string): void } }).paint.arm(c, a, o),
      [check, arg, on] as const,
    );
  // Never waits forever: a result that does not show within PAINT_TIMEOUT_MS answers -1.
  const done = () =>
    page.evaluate(
      (ms) =>
        Promise.race([
          (window as unknown as { paint: { done: Promise<number> } }).paint.done,
          new Promise<number>((r) => setTimeout(() => r(-1), ms)),
        ]),
      PAINT_TIMEOUT_MS,
    );
  // Between tries: the inspector has caught up with the last selection and two frames have passed.
  const idle = async () => {
    await page.waitForFunction(() => !document.querySelector('[data-testid="inspector"][data-stale]'));
    await page.evaluate(
      () =>
        new Promise<void>((r) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => r(), 30))),
        ),
    );
  };
  const count = () => page.evaluate(() => document.querySelectorAll('.dz-item').length);
  /**
   * A top-level widget in view, not the selected one: its id and a point on it. Both the point and
   * the palette drop's point (DROP_DX, DROP_DY from it) are on the box, inside the viewport: a drop
   * sent below the viewport's edge is never delivered, and its try would wait for nothing.
   */
  const target = (i: number) =>
    page.evaluate(
      ([j, dx, dy]) => {
        const on = (el: HTMLElement, x: number, y: number) =>
          x < innerWidth && y < innerHeight && document.elementFromPoint(x, y)?.closest('.dz-item') === el;
        const seen = [...document.querySelectorAll<HTMLElement>('.dz-item')].filter((el) => {
          const r = el.getBoundingClientRect();
          if (r.top < 40 || r.top + 4 + dy >= innerHeight || r.width < 40) return false;
          if (el.querySelector(':scope > .dz-chrome') || el.classList.contains('sel')) return false;
          // The points are on this box (not under a panel, not on a nested widget).
          return on(el, r.left + 6, r.top + 4) && on(el, r.left + 6 + dx, r.top + 4 + dy);
        });
        const el = seen[(j * 5 + 1) % seen.length]!;
        const r = el.getBoundingClientRect();
        // Near the top-left corner: on the box, off most widgets' own controls.
        return { id: el.dataset.wid!, x: r.left + 6, y: r.top + 4 };
      },
      [i, DROP_DX, DROP_DY] as const,
    );
  const click = async (x: number, y: number) => {
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
    await cdp.send('Input.dispatchMouseEvent', {
      type: 'mouseReleased',
      x,
      y,
      button: 'left',
      clickCount: 1,
    });
  };
  const timed = async (a: Arm, input: () => Promise<void>) => {
    await idle();
    await arm(a);
    await input();
    const ms = await done();
    if (ms < 0) {
      const state = await page.evaluate(() =>
        (window as unknown as { paint: { state(): unknown } }).paint.state(),
      );
      console.warn(
        `(${kind}: "${a[0]} ${a[1]}" after ${a[2]} did not show in ${PAINT_TIMEOUT_MS} ms: ${JSON.stringify(state)})`,
      );
    }
    return ms;
  };
  const undo = async (back: number) => {
    if ((await count()) === back) return;
    await page.keyboard.press('Control+z');
    await page.waitForFunction((m) => document.querySelectorAll('.dz-item').length === m, back);
  };
  const ops: Record<string, number[]> = {};
  for (const op of PAINT_OPS) ops[op] = [];
  const missed: Record<string, number> = {};
  /** Records one try; a missed one (-1) is counted apart, not as a time. */
  const record = (op: (typeof PAINT_OPS)[number], ms: number) => {
    if (ms >= 0) ops[op]!.push(ms);
    else missed[op] = (missed[op] ?? 0) + 1;
  };
  const nameField = kind === 'baseline' ? '.bx-name' : '[data-testid="widget-name"]';
  const tile = kind === 'baseline' ? '.bx-tile' : '[data-testid="palette-text"]';
  for (let i = 0; i < TRIES; i++) {
    diag(`try ${i}`);
    let t = await target(i);
    record('select', await timed(['selected', t.id, 'mousedown'], () => click(t.x, t.y)));
    t = await target(i + 7);
    record(
      'select + panel',
      await timed([kind === 'baseline' ? 'selected' : 'panel', t.id, 'mousedown'], () => click(t.x, t.y)),
    );
    // Delete, then undo (untimed) to keep the page's size.
    t = await target(i + 3);
    await click(t.x, t.y);
    record('delete', await timed(['gone', t.id, 'keydown'], () => page.keyboard.press('Delete')));
    await undo(n);
    t = await target(i + 4);
    await click(t.x, t.y);
    record(
      'duplicate',
      await timed(['count', String(n + 1), 'keydown'], () => page.keyboard.press('Control+d')),
    );
    record('undo', await timed(['count', String(n), 'keydown'], () => page.keyboard.press('Control+z')));
    // Insert by drop: the palette tile dragged onto the canvas (Playwright turns the mouse moves of
    // an HTML drag into Input.dispatchDragEvent), then undone.
    const from = (await page.locator(tile).first().boundingBox())!;
    t = await target(i + 11);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(t.x + DROP_DX, t.y + DROP_DY, { steps: 4 });
    record(
      'drop',
      await timed(['count', String(n + 1), 'drop'], async () => {
        await page.mouse.up();
      }),
    );
    await undo(n);
    // One character typed into the selected widget's name field, until the canvas shows it.
    t = await target(i + 2);
    await click(t.x, t.y);
    await page.waitForSelector(
      kind === 'baseline' ? nameField : `[data-testid="widget-name"][placeholder="${t.id}"]`,
    );
    await page.locator(nameField).first().click();
    const before = await page.locator(nameField).first().inputValue();
    const expect = `${before}k`;
    record(
      'keystroke',
      await timed(['named', JSON.stringify([t.id, expect]), 'keydown'], () => page.keyboard.press('k')),
    );
    // Back to the canvas for the next try's keys (Escape deselects; nothing else changes).
    await page.locator(nameField).first().blur();
  }
  const left = await count();
  if (left !== n) console.warn(`(${kind} paint pass: ${left} widgets at the end, not ${n})`);
  await cdp.detach();
  return { open, ops, missed };
}

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
  const prebuilt = process.env.BENCH_APP_DIR ? path.resolve(process.env.BENCH_APP_DIR) : null;
  if (!prebuilt) console.log('bench:designer — building the bench page…');
  const dir = prebuilt ?? (await buildApp());
  if (process.env.BENCH_BUILD_ONLY) {
    console.log(`bench:designer — page built in ${dir}`);
    return;
  }
  if (prebuilt) console.log(`bench:designer — the page built in ${prebuilt}`);
  const server = await serveDir(dir);
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser = await chromium.launch({
    ...CHROMIUM,
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
    if (PAINT_N > 0) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.addInitScript('globalThis.__name = (f) => f');
      // A renderer crash (out of memory) would otherwise surface only as "Target page closed".
      page.on('crash', () => console.error('bench:designer: the input-to-paint page crashed'));
      const ours = await measurePaint(page, base, 'designer', PAINT_N);
      const bare = await measurePaint(page, base, 'baseline', PAINT_N);
      await page.close();
      console.log(
        `\ninput to paint at ${PAINT_N} widgets (ms; real CDP input → paint of the frame showing the result; ${TRIES} tries, open ${OPENS} loads)`,
      );
      console.log(
        `${'figure'.padEnd(16)}${'p50'.padStart(9)}${'p95'.padStart(9)}${'base p50'.padStart(9)}${'base p95'.padStart(9)}${'p50 ×'.padStart(7)}${'p95 ×'.padStart(7)}`,
      );
      const row = (name: string, a: number[], b: number[]) =>
        console.log(
          `${name.padEnd(16)}${fmt(p50(a))} ${fmt(p95(a))} ${fmt(p50(b))} ${fmt(p95(b))}${ratio(p50(a), p50(b))}${ratio(p95(a), p95(b))}`,
        );
      row('open', ours.open, bare.open);
      for (const op of PAINT_OPS) row(op, ours.ops[op]!, bare.ops[op]!);
      for (const [who, r] of [
        ['designer', ours],
        ['baseline', bare],
      ] as const)
        if (Object.keys(r.missed).length)
          console.log(
            `${who}: tries whose result never showed (left out): ${Object.entries(r.missed)
              .map(([op, k]) => `${op} ${k}`)
              .join(', ')}`,
          );
    }
    console.log('\nGoals: open ≤ 2000 ms at 1,000; each op ≤ 50 ms at 1,000; drag step ≤ 16 ms at 500.');
    if (PAINT_N > 0)
      console.log(
        'Input to paint at 1,000: select ≤ 50 ms p95 (the panel may follow), open ≤ 1000 ms p50, every op ≤ 50 ms p95.',
      );
  } finally {
    await browser.close();
    server.close();
    if (!prebuilt) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
