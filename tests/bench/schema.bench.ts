/**
 * Schema benchmark: compile once, then validate pages of 100, 1,000 and 5,000 widgets, with two
 * baselines measured in the same run on the same documents (JSON.parse of the document, and a bare ajv
 * validator of a trivial shape that walks the widget list). Goal: p95 ≤ 5 ms at 1,000 widgets.
 */
import { cpus, loadavg } from 'node:os';
import Ajv from 'ajv';
import { pageValidator, WIDGETS } from '../../widgets/index.ts';
import { validatorCompileCount } from '../../widgets/validate.ts';
import { pageOfSize } from '../fixtures/pages.ts';

const SIZES = [100, 1000, 5000];
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const TARGET_MS = 5;

function stats(samples: number[]): { min: number; p50: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { min: s[0]!, p50: at(0.5), p95: at(0.95) };
}

function time(fn: () => unknown, runs: number): number[] {
  for (let i = 0; i < Math.min(20, runs); i++) fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

const fmt = (n: number) => n.toFixed(3).padStart(9);

let t = performance.now();
const validator = pageValidator();
// Checks compile on first use: the first whole-page check compiles every kind's props schema.
validator.validatePage(pageOfSize(WIDGETS, 1));
const compileMs = performance.now() - t;
pageValidator();
console.log(
  `kinds: ${WIDGETS.length}; schema compile: ${compileMs.toFixed(1)} ms (compiled ${validatorCompileCount()}×)`,
);

t = performance.now();
const bare = new Ajv().compile({
  type: 'object',
  properties: { widgets: { type: 'array', items: { type: 'object', required: ['id', 'kind'] } } },
});
console.log(`baseline compile (trivial schema): ${(performance.now() - t).toFixed(1)} ms\n`);

console.log(
  `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores (p95 suffers when the machine is shared)`,
);
console.log(
  'widgets |  page min |  page p50 |  page p95 | parse p50 | bare p50 | ratio/parse | ratio/bare | ≤5 ms @1000 (p50/p95)',
);
let failed = false;
// Warm the JIT on every size first, so the first size measured is not the one paying for it.
const pages = new Map(SIZES.map((n) => [n, pageOfSize(WIDGETS, n)]));
for (const page of pages.values()) for (let i = 0; i < 30; i++) validator.validatePage(page);
for (const n of SIZES) {
  const page = pages.get(n)!;
  const json = JSON.stringify(page);
  const check = validator.validatePage(page);
  if (!check.ok)
    throw new Error(`bench page of ${n} does not validate: ${JSON.stringify(check.errors.slice(0, 3))}`);
  const runs = n >= 5000 ? Math.max(20, RUNS / 4) : RUNS;
  const v = stats(time(() => validator.validatePage(page), runs));
  const p = stats(time(() => JSON.parse(json), runs));
  const b = stats(time(() => bare(page), runs));
  const ok = (x: number) => (x <= TARGET_MS ? 'yes' : 'NO');
  const verdict = n === 1000 ? `${ok(v.p50)}/${ok(v.p95)}` : '';
  if (n === 1000 && v.p50 > TARGET_MS) failed = true;
  console.log(
    `${String(n).padStart(7)} |${fmt(v.min)} |${fmt(v.p50)} |${fmt(v.p95)} |${fmt(p.p50)} |${fmt(b.p50)} |${(v.p50 / p.p50).toFixed(2).padStart(12)} |${(v.p50 / b.p50).toFixed(2).padStart(11)} | ${verdict}`,
  );
}
console.log(
  `\n(ms; ${RUNS} runs per size, 5,000 with fewer; document bytes at 1,000: ${JSON.stringify(pageOfSize(WIDGETS, 1000)).length})`,
);
if (failed) process.exitCode = 1;
