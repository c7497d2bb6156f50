/**
 * ops/startup-heap.ts in a fresh Node process: while held, many survivors (what a start allocates)
 * leave the young generation at its first size; once released it grows again as V8 sizes it; an
 * operator's own young-generation flags are left alone.
 */
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/import-graph.ts';

interface Sizes {
  first: number;
  held: number;
  released: number;
}

/** New-space size at start, after 40 MB of survivors while held, then after 40 MB more released. */
function run(execArgv: string[], hold: string[]): Sizes {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { holdYoungGeneration } from './src/server/ops/startup-heap.ts';
    const size = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    const keep = [];
    const survive = () => { for (let i = 0; i < 400_000; i++) keep.push({ i, s: 'x' + i }); };
    const first = size();
    const release = holdYoungGeneration(${JSON.stringify(hold)});
    survive();
    const held = size();
    release();
    survive();
    console.log(JSON.stringify({ first, held, released: size() }));
  `;
  const out = execFileSync(
    process.execPath,
    [...execArgv, '--import', 'tsx', '--input-type=module', '-e', script],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  return JSON.parse(out) as Sizes;
}

it('holds the young generation at its first size while held, and lets it grow once released', () => {
  const s = run([], []);
  expect(s.held).toBe(s.first);
  expect(s.released).toBeGreaterThan(s.held);
});

it('leaves an operator who set young-generation flags alone', () => {
  const s = run(['--max-semi-space-size=8'], ['--max-semi-space-size=8']);
  expect(s.held).toBeGreaterThan(s.first);
});
