/**
 * bench:runtime's menu-click figure in main-thread CPU (BENCH_MENU_ROUNDS=n): the page opened from
 * the menu n times in one loaded tab, each under a Chrome trace, summing the renderer main thread's
 * own CPU time (trace `tdur`, not wall time) from the click, and from the page JSON arriving, to the
 * page's first commit. On a machine shared with other work the wall figures swing with the load;
 * thread CPU time counts only the work this page did, so two builds compare on it.
 */
import fs from 'node:fs';
import type { Browser, Page } from '@playwright/test';

export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: { type?: string; url?: string; documentLoaderURL?: string } };
}

export interface MenuFigure {
  /** Wall ms, click → first commit and JSON → first commit. */
  wallClick: number;
  wallJson: number;
  /** Main-thread CPU ms over the same spans. */
  cpuClick: number;
  cpuJson: number;
  /** Main-thread CPU ms, click → every widget drawn (`lc:page-complete`). */
  cpuComplete: number;
}

/** Main-thread CPU (µs) of the top-level tasks inside [t0, t1], prorated at the edges. */
export function cpuBetween(events: TraceEvent[], t0: number, t1: number): number {
  const xs = events
    .filter((e) => e.ph === 'X' && e.dur !== undefined && e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  let end = -1;
  let cpu = 0;
  for (const e of xs) {
    if (e.ts < end) continue; // nested in the current top-level task
    end = e.ts + e.dur!;
    const overlap = Math.min(end, t1) - Math.max(e.ts, t0);
    if (overlap <= 0) continue;
    cpu += e.dur! > 0 ? (e.tdur! * overlap) / e.dur! : 0;
  }
  return cpu;
}

/** Reads one menu-click trace: the renderer thread that set the marks, the click and the marks. */
export function readMenuTrace(text: string): MenuFigure {
  const events = (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents;
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && e.name.startsWith('lc:'));
  const first = marks[0];
  if (!first) throw new Error('menu trace: no lc: marks');
  const main = events.filter((e) => e.pid === first.pid && e.tid === first.tid);
  const click = main.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'click').at(-1);
  const at = (name: string) => marks.filter((e) => e.name === name).at(-1)?.ts;
  const json = at('lc:page-json');
  const rendered = at('lc:page-rendered');
  const complete = at('lc:page-complete');
  if (!click || json === undefined || rendered === undefined || complete === undefined)
    throw new Error('menu trace: click, lc:page-json, lc:page-rendered or lc:page-complete missing');
  return {
    wallClick: (rendered - click.ts) / 1000,
    wallJson: (rendered - json) / 1000,
    cpuClick: cpuBetween(main, click.ts, rendered) / 1000,
    cpuJson: cpuBetween(main, json, rendered) / 1000,
    cpuComplete: cpuBetween(main, click.ts, complete) / 1000,
  };
}

/**
 * Opens the page from the menu `rounds` times in `tab` (the app already loaded, the page once
 * visited), tracing each click. `keep`: file for each round's trace (DevTools' Performance panel), `%d`
 * standing for the round; BENCH_FIBERS=1 prints the React tree's size after the last round.
 */
export async function menuRounds(
  browser: Browser,
  tab: Page,
  entry: string,
  rounds: number,
  keep?: string,
): Promise<MenuFigure[]> {
  const out: MenuFigure[] = [];
  for (let i = 0; i < rounds; i++) {
    // Back to the home screen (builds whose menu pages stand alone have no toolbar there).
    await tab.goBack();
    await tab.getByTestId('app-menu').getByText(entry).waitFor();
    // Home drawn and idle before the click, as a user who reads the home screen first.
    await tab.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 2000 })));
    await tab.evaluate(() => {
      performance.clearMarks();
      performance.clearMeasures();
    });
    await browser.startTracing(tab, { screenshots: false });
    await tab.getByTestId('app-menu').getByText(entry).click();
    await tab.waitForFunction(() => performance.getEntriesByName('lc:render-all').length > 0, null, {
      timeout: 60_000,
    });
    const text = (await browser.stopTracing()).toString('utf8');
    if (keep) fs.writeFileSync(keep.replace('%d', String(i)), text);
    if (process.env.BENCH_FIBERS === '1' && i === rounds - 1) console.log(await tab.evaluate(countFibers));
    out.push(readMenuTrace(text));
  }
  return out;
}

/**
 * In the page: React fibers in the whole tree and under the page's first widget boxes (diagnostics).
 * A string, not a function: tsx's name helpers do not exist in the page.
 */
const countFibers = `(() => {
  const fiberOf = (el) => {
    if (!el) return null;
    const key = Object.keys(el).find((k) => k.startsWith('__reactFiber$'));
    return key ? el[key] : null;
  };
  const count = (f) => {
    let n = 0;
    const stack = f ? [f] : [];
    while (stack.length) {
      const x = stack.pop();
      n++;
      if (x.child) stack.push(x.child);
      if (x.sibling && x !== f) stack.push(x.sibling);
    }
    return n;
  };
  let root = fiberOf(document.querySelector('.lc-page'));
  while (root && root.return) root = root.return;
  const boxes = [...document.querySelectorAll('.lc-page [data-wid]')].slice(0, 10);
  return 'fibers: whole tree ' + count(root) + ', page ' + count(fiberOf(document.querySelector('.lc-page'))) +
    ', first widget boxes ' + boxes.map((b) => count(fiberOf(b))).join(' ');
})()`;
