/**
 * bench:runtime's cold-load figure in main-thread CPU (BENCH_COLD_CPU_ROUNDS=n, default 3): the page
 * loaded n more times in fresh contexts (no HTTP cache), each under a Chrome trace, after the timed
 * rounds (the trace's own cost stays out of their wall figures). From each trace: the renderer main
 * thread's own CPU from navigation start to the first widget painted, split by what it did (script
 * evaluation, compilation, HTML parsing, style and layout, paint, GC), and when the page JSON was
 * asked for. Wall time on a shared machine swings with the load; two builds compare on these.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext } from '@playwright/test';
import { cpuBetween, type TraceEvent } from './menu-cpu.ts';

export interface ColdFigure {
  /** Wall ms from navigation start. */
  fcp: number;
  firstWidget: number;
  /** Main-thread CPU ms, navigation start → first widget painted. */
  cpu: number;
  /** The same CPU (ms) by kind of work. */
  self: Record<WorkKind, number>;
  /** When the page JSON request went out (ms from navigation start), and how many went before it. */
  jsonAt: number;
  requestsBefore: number;
}

export type WorkKind = 'script' | 'compile' | 'parseHTML' | 'style+layout' | 'paint' | 'gc' | 'other';

/** Trace event names by kind of work (Chromium's devtools.timeline and v8 categories). */
const KINDS: [WorkKind, RegExp][] = [
  ['compile', /^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.produceModuleCache|v8\.produceCache)/],
  [
    'script',
    /^(EvaluateScript|v8\.evaluateModule|v8\.run|FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|V8\.Execute|v8\.callFunction)$/,
  ],
  ['parseHTML', /^ParseHTML$/],
  [
    'style+layout',
    /^(UpdateLayoutTree|Layout|RecalculateStyles|InvalidateLayout|ScheduleStyleRecalculation)$/,
  ],
  ['paint', /^(Paint|PrePaint|Layerize|UpdateLayer|CompositeLayers|Commit|PaintImage)$/],
  ['gc', /^(MinorGC|MajorGC|V8\.GC|BlinkGC|GCEvent|ThreadState::)/],
];

function kindOf(name: string): WorkKind {
  for (const [k, re] of KINDS) if (re.test(name)) return k;
  return 'other';
}

/**
 * Main-thread CPU by kind inside [t0, t1]: each complete event's own thread time (`tdur`) less its
 * children's (events on one thread nest), prorated where the span cuts it.
 */
function selfByKind(events: TraceEvent[], t0: number, t1: number): Record<WorkKind, number> {
  const out: Record<WorkKind, number> = {
    script: 0,
    compile: 0,
    parseHTML: 0,
    'style+layout': 0,
    paint: 0,
    gc: 0,
    other: 0,
  };
  const xs = events
    .filter((e) => e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // The event's thread time inside the span.
  const cpuIn = (e: TraceEvent) => {
    const inside = Math.max(0, Math.min(e.ts + e.dur!, t1) - Math.max(e.ts, t0));
    return e.dur! > 0 ? ((e.tdur ?? 0) * inside) / e.dur! : 0;
  };
  // Stack of open events, each with the thread time its children took.
  const stack: { e: TraceEvent; end: number; kids: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length && stack.at(-1)!.end <= upTo) {
      const top = stack.pop()!;
      const cpu = cpuIn(top.e);
      out[kindOf(top.e.name)] += Math.max(0, cpu - top.kids) / 1000;
      if (stack.length) stack.at(-1)!.kids += cpu;
    }
  };
  for (const e of xs) {
    close(e.ts);
    stack.push({ e, end: e.ts + e.dur!, kids: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return out;
}

/** Reads one cold-load trace. */
export function readColdTrace(text: string): ColdFigure {
  const events = (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents;
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && e.name.startsWith('lc:'));
  const first = marks[0];
  if (!first) throw new Error('cold trace: no lc: marks');
  const main = events.filter((e) => e.pid === first.pid && e.tid === first.tid);
  // The page's own navigation (about:blank before it, and frames, start navigations too).
  const nav = main
    .filter((e) => e.name === 'navigationStart' && e.ts <= first.ts)
    .filter((e) => /^https?:/.test(e.args?.data?.documentLoaderURL ?? ''))
    .at(-1);
  const widget = marks.find((e) => e.name === 'lc:first-widget');
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === first.pid);
  if (!nav || !widget || !fcp) throw new Error('cold trace: navigationStart, lc:first-widget or FCP missing');
  const sends = events
    .filter(
      (e) => e.name === 'ResourceSendRequest' && e.ts >= nav.ts && /^https?:/.test(e.args?.data?.url ?? ''),
    )
    .sort((a, b) => a.ts - b.ts);
  const url = (e: TraceEvent) => e.args?.data?.url ?? '';
  const json = sends.findIndex((e) => /\/api\/app\/page\//.test(url(e)));
  return {
    fcp: (fcp.ts - nav.ts) / 1000,
    firstWidget: (widget.ts - nav.ts) / 1000,
    cpu: cpuBetween(main, nav.ts, widget.ts) / 1000,
    self: selfByKind(main, nav.ts, widget.ts),
    jsonAt: json < 0 ? Number.NaN : (sends[json]!.ts - nav.ts) / 1000,
    requestsBefore: json < 0 ? Number.NaN : json,
  };
}

/**
 * Loads `url` cold `rounds` times, each in a fresh context made by `newContext`, under a Chrome
 * trace; `keep`: a file for each round's trace, `%d` standing for the round.
 */
export async function coldRounds(
  browser: Browser,
  newContext: () => Promise<BrowserContext>,
  url: string,
  rounds: number,
  keep?: string,
): Promise<ColdFigure[]> {
  const out: ColdFigure[] = [];
  for (let i = 0; i < rounds; i++) {
    const ctx = await newContext();
    const tab = await ctx.newPage();
    await browser.startTracing(tab, { screenshots: false });
    await tab.goto(url);
    await tab.waitForFunction(() => performance.getEntriesByName('lc:first-widget').length > 0, null, {
      timeout: 60_000,
    });
    // FCP is reported a frame after the paint.
    await tab.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, {
      timeout: 60_000,
    });
    const text = (await browser.stopTracing()).toString('utf8');
    if (keep) fs.writeFileSync(keep.replace('%d', String(i)), text);
    out.push(readColdTrace(text));
    await ctx.close();
  }
  return out;
}
