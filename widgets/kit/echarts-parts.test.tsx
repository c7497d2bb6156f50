/**
 * The chart kinds draw only with the echarts parts ./echarts.ts registers: every option a kind's view
 * builds (each series type its props offer) names registered series types and components. A part
 * left out would not fail at build time; the chart would draw without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerenderToNodeStream } from 'react-dom/static';
import { describe, expect, it, vi } from 'vitest';
import { WIDGETS } from '../index.ts';
import { OPTION_KEYS, SERIES_TYPES } from './echarts.ts';
import { staticRuntime, WidgetRuntimeProvider } from './widget-context.ts';

const seen = vi.hoisted(() => [] as Record<string, unknown>[]);
vi.mock('./use-echarts.ts', () => ({
  useECharts: (option: Record<string, unknown>) => {
    seen.push(option);
    return { current: null };
  },
}));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const charting = WIDGETS.filter((w) =>
  fs.readFileSync(path.join(root, w.kind, 'render.tsx'), 'utf8').includes('use-echarts'),
);

/** The props to draw a kind with: its defaults, then each value of an enum prop that picks the chart type. */
function variants(w: (typeof WIDGETS)[number]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{ ...w.defaults }];
  for (const [key, s] of Object.entries(w.schema.properties))
    if (Array.isArray(s.enum)) for (const v of s.enum) out.push({ ...w.defaults, [key]: v });
  for (const [key, s] of Object.entries(w.schema.properties))
    if (s.type === 'boolean') out.push({ ...w.defaults, [key]: !w.defaults[key] });
  return out;
}

describe('echarts parts', () => {
  it('some kinds draw charts', () => {
    expect(charting.map((w) => w.kind)).toEqual(expect.arrayContaining(['chart-pie', 'graph']));
  });

  for (const w of charting)
    it(`${w.kind}: its options use registered series and components`, async () => {
      const Render = await w.loadRender();
      for (const props of variants(w)) {
        seen.length = 0;
        const { prelude } = await prerenderToNodeStream(
          <WidgetRuntimeProvider runtime={staticRuntime({ mode: 'design' })}>
            <Render id="w1" props={props} />
          </WidgetRuntimeProvider>,
        );
        for await (const _ of prelude) {
          // drained
        }
        expect(seen.length).toBeGreaterThan(0);
        for (const option of seen) {
          const keys = Object.keys(option).filter((k) => option[k] !== undefined);
          expect(keys.filter((k) => !OPTION_KEYS.has(k))).toEqual([]);
          const types = (option.series as { type: string }[]).map((s) => s.type);
          expect(types.filter((t) => !SERIES_TYPES.has(t))).toEqual([]);
        }
      }
    });
});
