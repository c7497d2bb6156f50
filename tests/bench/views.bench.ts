/**
 * bench:views — the end user's data view (a list menu entry) over a 100,000-row table of 20 fields
 * (`BENCH_ROWS`), in Debian's Chromium, against a bare antd Table given the same rows in the same run
 * (tests/bench/views-app: no toolbar, settings, labels or live reloads; the rows are handed to it in
 * memory, so its figures are render-only while ours include the data calls).
 *
 *  1. open: in a loaded app, click the menu entry → the first page's rows painted; goal ≤ 300 ms;
 *  2. scroll: 1,000 rows a page (virtual), scroll through two pages (2,000 rows), 300 px a frame →
 *     the main thread's work a frame, p95, from a Chrome trace (frameWork); goal ≤ 16 ms. The rAF
 *     frame interval p95 is printed too: it cannot go below the display period (16.7 ms), so 16.8
 *     there means no frame was missed, not a frame over budget;
 *  3. group: pick a 10-value field to group by → group rows with their sums (from the server, over the
 *     whole filtered set) painted; goal ≤ 200 ms.
 * Rounds: BENCH_ROUNDS (default 3); medians reported. BENCH_NO_BUILD=1 reuses dist/client.
 * Diagnostics of the last round: BENCH_PROFILE=1 prints our side's self time by function for each
 * measure (open, group, scroll); BENCH_PROFILE_DIR=dir keeps the .cpuprofile files (build with
 * `npx vite build --minify false` first for readable names); BENCH_TRACE_DIR=dir keeps Chrome traces
 * of our open, group and scroll and of the bare scroll (DevTools' Performance panel);
 * BENCH_SHOT_DIR=dir keeps screenshots of our 1,000-row page at desktop and phone sizes (first round).
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { antdCss } from '../../scripts/vite-antd-css.ts';
import { scrollbarSizeCache } from '../../scripts/vite-scrollbar-cache.ts';

import { CHROMIUM, serveDir } from './kit.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist/client');
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
const ENTRY = 'Bench rows';
const step = (what: string) => process.env.BENCH_VERBOSE === '1' && console.log(`  … ${what}`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? Number.NaN;
};
const fmt = (n: number) => n.toFixed(1);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const FIELDS: [string, 'string' | 'number' | 'date'][] = [
  ['title', 'string'],
  ['customer', 'string'],
  ['status', 'string'],
  ['region', 'string'],
  ['city', 'string'],
  ['owner', 'string'],
  ['code', 'string'],
  ['note', 'string'],
  ['phone', 'string'],
  ['email', 'string'],
  ['amount', 'number'],
  ['qty', 'number'],
  ['score', 'number'],
  ['price', 'number'],
  ['cost', 'number'],
  ['weight', 'number'],
  ['created', 'date'],
  ['due', 'date'],
  ['shipped', 'date'],
  ['paid', 'date'],
];
const REGIONS = ['North', 'South', 'East', 'West', 'Central', 'Coast', 'Hills', 'Lakes', 'Plains', 'Islands'];
const STATUSES = ['new', 'paid', 'shipped', 'done', 'cancelled'];

async function buildBaseline(): Promise<string> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-views-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(root, 'tests/bench/views-app'),
    plugins: [react(), antdCss(), scrollbarSizeCache()],
    build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  });
  return out;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * BENCH_PROFILE=1: starts Chromium's sampling profiler on the tab; the answer stops it and prints
 * where the main thread went (self ms by function), keeping the profile in BENCH_PROFILE_DIR.
 */
async function profiled(ctx: BrowserContext, tab: Page, name: string): Promise<() => Promise<void>> {
  if (process.env.BENCH_PROFILE !== '1') return async () => {};
  const cdp = await ctx.newCDPSession(tab);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async () => {
    const prof = ((await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }).profile;
    await cdp.detach();
    const dir = process.env.BENCH_PROFILE_DIR;
    if (dir) fs.writeFileSync(path.join(dir, `views-${name}.cpuprofile`), JSON.stringify(prof));
    const byNode = new Map(prof.nodes.map((n) => [n.id, n]));
    const self = new Map<string, number>();
    let busy = 0;
    prof.samples.forEach((id, i) => {
      const f = byNode.get(id)!.callFrame;
      const ms = (prof.timeDeltas[i] ?? 0) / 1000;
      if (f.functionName !== '(idle)' && f.functionName !== '(program)') busy += ms;
      const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*\//, '')}:${f.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + ms);
    });
    console.log(`   profile ${name}: ${busy.toFixed(0)} ms busy; self ms by function:`);
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`   ${v.toFixed(1).padStart(7)}  ${k}`);
  };
}

/** In the page: wait until `selector` matches at least `n` elements, then for the next paint. */
async function paintedWhen(tab: Page, selector: string, n: number, t0Name: string): Promise<number> {
  return tab.evaluate(
    async ([sel, count, name]) => {
      await new Promise<void>((resolve) => {
        const check = () => {
          if (document.querySelectorAll(sel).length >= count) resolve();
          else requestAnimationFrame(check);
        };
        check();
      });
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const t0 = (window as unknown as Record<string, number>)[name]!;
      return performance.now() - t0;
    },
    [selector, n, t0Name] as const,
  );
}

/** Scroll the virtual body of the table in `scope` to its end, 300 px a frame; frame durations. */
async function scrollThrough(tab: Page, scope: string): Promise<number[]> {
  return tab.evaluate(async (sel) => {
    const holder = document.querySelector(`${sel} .ant-table-tbody-virtual-holder`) as HTMLElement | null;
    if (!holder) throw new Error('no virtual table body');
    holder.scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(r));
    performance.mark('bench:scroll-start');
    const frames: number[] = [];
    let last = performance.now();
    await new Promise<void>((resolve) => {
      const step = (now: number) => {
        frames.push(now - last);
        last = now;
        const before = holder.scrollTop;
        holder.scrollTop = before + 300;
        if (holder.scrollTop === before) {
          performance.mark('bench:scroll-end');
          resolve();
        } else requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    return frames.slice(1);
  }, scope);
}

/**
 * Main-thread work per frame while `run` scrolls, from a Chrome trace: the frame interval that
 * rAF shows cannot go below the display's period (16.7 ms at 60 Hz, what a frame p95 of 16.8 means),
 * so it says only that no frame was missed. The work each frame took is the figure to hold to the
 * 16 ms budget: the top-level tasks of the renderer's main thread (RunTask) summed between two
 * consecutive BeginMainThreadFrame events, those tasks clipped to the frame; only frames that begin
 * between scrollThrough's marks `bench:scroll-start` and `bench:scroll-end` count (not the tracing's
 * own start and stop). `save` keeps the trace for DevTools.
 */
async function frameWork(tab: Page, run: () => Promise<void>, save?: string): Promise<number[]> {
  const browser = tab.context().browser()!;
  await browser.startTracing(tab, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'disabled-by-default-devtools.timeline.frame',
      'toplevel',
      'blink.user_timing',
    ],
  });
  await run();
  const buf = await browser.stopTracing();
  if (save) fs.writeFileSync(save, buf);
  type Ev = {
    name: string;
    ph: string;
    ts: number;
    dur?: number;
    pid: number;
    tid: number;
    args?: { name?: string };
  };
  const events = (JSON.parse(buf.toString()) as { traceEvents: Ev[] }).traceEvents;
  // The tab's renderer main thread: of the CrRendererMain threads traced, the one that made the
  // most frames (other tabs and renderers may be in the trace).
  const mains = events.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const framesOf = (m: Ev) =>
    events
      .filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'BeginMainThreadFrame')
      .map((e) => e.ts)
      .sort((x, y) => x - y);
  const main = mains
    .map((m) => ({ m, begins: framesOf(m) }))
    .sort((x, y) => y.begins.length - x.begins.length)[0];
  if (!main) return [];
  const mark = (name: string) => events.find((e) => e.name === name && e.pid === main.m.pid)?.ts;
  const [start, end] = [mark('bench:scroll-start'), mark('bench:scroll-end')];
  if (start === undefined || end === undefined) throw new Error('the trace holds no scroll marks');
  const begins = main.begins.filter((t) => t >= start && t <= end);
  // Top-level tasks only: a RunTask inside another (nested loops) is part of its parent's time.
  const tasks: Ev[] = [];
  for (const t of events
    .filter(
      (e) =>
        e.pid === main.m.pid &&
        e.tid === main.m.tid &&
        e.name === 'RunTask' &&
        e.ph === 'X' &&
        e.dur !== undefined,
    )
    .sort((x, y) => x.ts - y.ts)) {
    const top = tasks.at(-1);
    if (top && t.ts < top.ts + top.dur!) continue;
    tasks.push(t);
  }
  const work: number[] = [];
  for (let i = 0; i + 1 < begins.length; i++) {
    const [from, to] = [begins[i]!, begins[i + 1]!];
    let busy = 0;
    for (const t of tasks) busy += Math.max(0, Math.min(to, t.ts + t.dur!) - Math.max(from, t.ts));
    work.push(busy / 1000);
  }
  return work;
}

async function main() {
  if (process.env.BENCH_NO_BUILD !== '1') {
    console.log('building the client…');
    execSync('npx vite build', { cwd: root, stdio: 'ignore' });
  }
  const baselineDir = await buildBaseline();
  const baselineServer = await serveDir(baselineDir);
  const baselineUrl = `http://127.0.0.1:${(baselineServer.address() as { port: number }).port}/`;

  const { buildApp } = await import('../../src/server/app.ts');
  const { loadConfig } = await import('../../src/server/config.ts');
  const { firstRun } = await import('../../src/server/bootstrap.ts');
  const { createEntity, createField } = await import('../../src/server/data/schema-service.ts');
  const { loadMeta } = await import('../../src/server/data/meta.ts');
  const { fieldColumn } = await import('../../src/server/data/ddl.ts');
  const { newId } = await import('../../src/shared/id.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-bench-views-'));
  const app = await buildApp(
    loadConfig({}, { dataDir, clientDir: dist, adminAccount: 'builder', adminPassword: 'builder123' }),
    { logger: false },
  );
  const created = (await firstRun(app))!;
  const project = created.projectId;
  const { db, dialect } = app.database;
  const entity = await createEntity(db, project, { name: ENTRY, code: 'benchrows' });
  for (const [code, type] of FIELDS)
    await createField(db, dialect, entity, { name: code, field: code, type });
  const meta = await loadMeta(db, project, 'benchrows');
  const col = (code: string) => fieldColumn(meta.byCode.get(code)!.id);
  const r = rng(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const makeRow = (i: number): unknown[] => [
    newId(T0 + i),
    T0 + i,
    T0 + i,
    `Row ${i} ${Math.floor(r() * 1e6).toString(36)}`,
    `Customer ${Math.floor(r() * 5000)}`,
    pick(STATUSES),
    pick(REGIONS),
    `City ${Math.floor(r() * 60)}`,
    `Owner ${Math.floor(r() * 40)}`,
    `C-${(100000 + i).toString(36)}`,
    r() < 0.3 ? null : `note ${Math.floor(r() * 1000)}`,
    `139${String(Math.floor(r() * 1e8)).padStart(8, '0')}`,
    `user${i}@example.com`,
    Math.round(r() * 100_000) / 100,
    Math.floor(r() * 50),
    Math.round(r() * 1000) / 100,
    Math.round(r() * 10_000) / 100,
    Math.round(r() * 5_000) / 100,
    Math.round(r() * 3_000) / 100,
    T0 + Math.floor(r() * 700) * DAY,
    T0 + Math.floor(r() * 700) * DAY,
    r() < 0.2 ? null : T0 + Math.floor(r() * 700) * DAY,
    r() < 0.5 ? null : T0 + Math.floor(r() * 700) * DAY,
  ];
  const t0 = performance.now();
  const cols = ['_id', '_created_at', '_updated_at', ...FIELDS.map(([c]) => col(c))];
  if (dialect !== 'sqlite') throw new Error('bench:views runs on the embedded SQLite default');
  const raw = app.database.sqlite!;
  const stmt = raw.prepare(
    `INSERT INTO "${meta.table}" (${cols.map((c) => `"${c}"`).join(',')}) VALUES (${cols.map(() => '?').join(',')})`,
  );
  raw.transaction(() => {
    for (let i = 0; i < ROWS; i++) stmt.run(...makeRow(i));
  })();
  raw.exec('ANALYZE');
  console.log(
    `${ROWS.toLocaleString()} rows × ${FIELDS.length} fields loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const json = async <T>(url: string, body?: unknown, token?: string): Promise<T> => {
    const res = await fetch(base + url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const a = (await res.json()) as { error: number; msg?: string; data: T };
    if (a.error !== 0) throw new Error(`${url}: ${a.error} ${a.msg}`);
    return a.data;
  };
  const { token } = await json<{ token: string }>('/api/common/user/login', {
    user: 'builder',
    pwd: 'builder123',
  });
  await json(`/api/admin/route/${project}/create`, { type: 'table', name: ENTRY, value: 'benchrows' }, token);
  const pageOf = (size: number, index = 1) =>
    json<{ data: Record<string, unknown>[] }>(
      `/api/app/simple/${project}/benchrows/query`,
      { page: { index, size } },
      token,
    ).then((a) => a.data);
  const rows20 = await pageOf(20);
  const rows1000 = [await pageOf(1000, 1), await pageOf(1000, 2)];

  const browser = await chromium.launch({
    ...CHROMIUM,
  });
  const ours = { open: [] as number[], group: [] as number[], frames: [] as number[], work: [] as number[] };
  const bare = { open: [] as number[], group: [] as number[], frames: [] as number[], work: [] as number[] };
  const fieldCodes = FIELDS.map(([c]) => c);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // Ours: a loaded app, then the menu entry.
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      await ctx.addInitScript(
        ([t, p]) => {
          localStorage.setItem('token', t);
          localStorage.setItem('lc_project', p);
        },
        [token, project] as const,
      );
      // tsx keeps function names with a helper the page does not have.
      await ctx.addInitScript({ content: 'globalThis.__name = (f) => f;' });
      const tab = await ctx.newPage();
      await tab.goto(`${base}/`);
      const item = tab.getByTestId('app-menu').getByText(ENTRY).first();
      await item.waitFor({ timeout: 60_000 }).catch(async (err) => {
        await tab.screenshot({ path: path.join(os.tmpdir(), 'bench-views-home.png') });
        throw err;
      });
      const last = round === ROUNDS;
      let stop = last ? await profiled(ctx, tab, 'open') : async () => {};
      const traceOpen = last ? process.env.BENCH_TRACE_DIR : undefined;
      if (traceOpen) await browser.startTracing(tab, { path: path.join(traceOpen, 'views-open.json') });
      await tab.evaluate((name) => {
        const menu = document.querySelector('[data-testid="app-menu"]')!;
        const el = [...menu.querySelectorAll('li, a, span')]
          .reverse()
          .find((e) => e.textContent?.trim() === name);
        (window as unknown as Record<string, number>).__open = performance.now();
        (el as HTMLElement).click();
      }, ENTRY);
      const open = await paintedWhen(
        tab,
        '[data-testid="data-view"] .ant-table-tbody .ant-table-row',
        20,
        '__open',
      );
      ours.open.push(open);
      if (traceOpen) await browser.stopTracing();
      await stop();
      step(`open ${open}`);

      // Group by region: from the option's click to the groups with their sums painted.
      await tab.getByTestId('view-group').click();
      const option = tab.locator('.ant-select-item-option', { hasText: /^region$/ }).first();
      await option.waitFor();
      await tab.evaluate(() => {
        document.addEventListener(
          'click',
          () => {
            (window as unknown as Record<string, number>).__group = performance.now();
          },
          { capture: true, once: true },
        );
      });
      stop = last ? await profiled(ctx, tab, 'group') : async () => {};
      const traceGroup = last ? process.env.BENCH_TRACE_DIR : undefined;
      if (traceGroup) await browser.startTracing(tab, { path: path.join(traceGroup, 'views-group.json') });
      await option.click();
      ours.group.push(await paintedWhen(tab, '.dv-group-sum', 1, '__group'));
      if (traceGroup) await browser.stopTracing();
      await stop();
      await tab.keyboard.press('Escape');
      // Ungroup, then 1,000 rows a page and scroll through two pages.
      await tab.locator('[data-testid="view-group"] .ant-select-clear').click({ force: true });
      await tab.locator('.ant-pagination-options .ant-select').click();
      await tab.locator('.ant-select-item-option', { hasText: '1000' }).first().click();
      await tab
        .waitForFunction(() =>
          /Row \d+ /.test(
            document.querySelector('[data-testid="data-view"] .ant-table-tbody-virtual-holder')
              ?.textContent ?? '',
          ),
        )
        .catch(async (err) => {
          await tab.screenshot({ path: path.join(os.tmpdir(), 'bench-views-size.png') });
          throw err;
        });
      const shots = round === 1 ? process.env.BENCH_SHOT_DIR : undefined;
      if (shots) {
        // The large page as a desktop and a phone show it (for a look, not a measure).
        await tab.screenshot({ path: path.join(shots, 'views-large-desktop.png') });
        await tab.setViewportSize({ width: 390, height: 844 });
        await tab.waitForTimeout(500);
        await tab.screenshot({ path: path.join(shots, 'views-large-phone.png') });
        await tab.setViewportSize({ width: 1440, height: 900 });
        await tab.waitForTimeout(500);
      }
      step('scroll page 1');
      stop = last ? await profiled(ctx, tab, 'scroll') : async () => {};
      const traceDir = last ? process.env.BENCH_TRACE_DIR : undefined;
      let f1: number[] = [];
      const w1 = await frameWork(
        tab,
        async () => {
          f1 = await scrollThrough(tab, '[data-testid="data-view"]');
        },
        traceDir && path.join(traceDir, 'views-scroll.json'),
      );
      await stop();
      step(`page 1: ${f1.length} frames`);
      await tab.locator('.ant-pagination-next').click();
      await tab.waitForFunction(() =>
        /Row 1\d{3} /.test(
          document.querySelector('[data-testid="data-view"] .ant-table-tbody-virtual-holder')?.textContent ??
            '',
        ),
      );
      let f2: number[] = [];
      const w2 = await frameWork(tab, async () => {
        f2 = await scrollThrough(tab, '[data-testid="data-view"]');
      });
      step(`page 2: ${f2.length} frames`);
      ours.frames.push(...f1, ...f2);
      ours.work.push(...w1, ...w2);
      await ctx.close();

      // The bare antd Table, given the same rows.
      const bctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await bctx.addInitScript({ content: 'globalThis.__name = (f) => f;' });
      const btab = await bctx.newPage();
      await btab.goto(baselineUrl);
      await btab.waitForFunction(() => 'benchReady' in window);
      const show = (rows: unknown, options: unknown, mark: string) =>
        btab.evaluate(
          ([rs, o, m]) => {
            (window as unknown as Record<string, number>)[m] = performance.now();
            (window as unknown as { bench: { show(r: unknown, o: unknown): void } }).bench.show(rs, o);
          },
          [rows, options, mark] as const,
        );
      await show(rows20, { fields: fieldCodes, virtual: false }, '__open');
      step('bare');
      bare.open.push(await paintedWhen(btab, '.ant-table-tbody .ant-table-row', 20, '__open'));
      await show(rows20, { fields: fieldCodes, virtual: false, group: 'region', sum: 'amount' }, '__group');
      bare.group.push(await paintedWhen(btab, '.ant-table-row-level-1', 1, '__group'));
      for (const [i, page] of rows1000.entries()) {
        await btab.evaluate(() => (window as unknown as { bench: { clear(): void } }).bench.clear());
        await show(page, { fields: fieldCodes, virtual: true }, '__scroll');
        await paintedWhen(btab, '.ant-table-tbody-virtual-holder', 1, '__scroll');
        const stopBare = last && i === 0 ? await profiled(bctx, btab, 'bare-scroll') : async () => {};
        const traceDir = last && i === 0 ? process.env.BENCH_TRACE_DIR : undefined;
        const work = await frameWork(
          btab,
          async () => {
            bare.frames.push(...(await scrollThrough(btab, 'body')));
          },
          traceDir && path.join(traceDir, 'views-bare-scroll.json'),
        );
        bare.work.push(...work);
        await stopBare();
      }
      await bctx.close();
      const spread = (xs: number[]) =>
        [0.5, 0.75, 0.9, 0.95, 1].map((q) =>
          fmt([...xs].sort((a, b) => a - b)[Math.ceil(xs.length * q) - 1]!),
        );
      step(`frames p50/p75/p90/p95/max: ours ${spread([...f1, ...f2])}; bare ${spread(bare.frames)}`);
      console.log(
        `round ${round}: open ${fmt(open)} ms (bare ${fmt(bare.open.at(-1)!)}), group ${fmt(ours.group.at(-1)!)} ms (bare ${fmt(bare.group.at(-1)!)}), ` +
          `scroll frame p95 ${fmt(p95([...f1, ...f2]))} ms over ${f1.length + f2.length} frames, ` +
          `work a frame p95 ${fmt(p95([...w1, ...w2]))} ms (bare ${fmt(p95(bare.work))})`,
      );
    }
  } finally {
    await browser.close();
    baselineServer.close();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const line = (name: string, a: number, b: number, goal: string) =>
    console.log(
      `${name.padEnd(34)} ours ${fmt(a).padStart(7)} ms   bare antd Table ${fmt(b).padStart(7)} ms   ratio ${(a / b).toFixed(2)}×   (${goal})`,
    );
  console.log('');
  line('open from the menu → first page', median(ours.open), median(bare.open), 'goal ≤ 300 ms');
  line(
    'scroll 2,000 rows, frame p95',
    p95(ours.frames),
    p95(bare.frames),
    'the display period: no frame missed',
  );
  line('scroll, main-thread work a frame p95', p95(ours.work), p95(bare.work), 'goal ≤ 16 ms');
  line('group by a 10-value field + sum', median(ours.group), median(bare.group), 'goal ≤ 200 ms');
}

await main();
