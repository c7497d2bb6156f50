/** echarts option builders shared by the chart kinds (plain data; echarts itself loads lazily). */
import { bool, color, nums, str, strings } from '../../src/shared/props.ts';

export interface Point {
  name: string;
  value: number;
}

/** Groups rows by a dimension field and aggregates a measure (count, sum, avg, max, min). */
export function aggregate(
  rows: Record<string, unknown>[],
  dim: string,
  measure: string,
  how: string,
): Point[] {
  const groups = new Map<string, number[]>();
  for (const r of rows) {
    const key = str(r[dim], '');
    const v = Number(r[measure]);
    const list = groups.get(key) ?? [];
    list.push(Number.isFinite(v) ? v : 0);
    groups.set(key, list);
  }
  return [...groups].map(([name, vs]) => {
    const sum = vs.reduce((a, b) => a + b, 0);
    const value =
      how === 'sum'
        ? sum
        : how === 'avg'
          ? sum / vs.length
          : how === 'max'
            ? Math.max(...vs)
            : how === 'min'
              ? Math.min(...vs)
              : vs.length;
    return { name, value };
  });
}

export function seriesOption(type: string, points: Point[]): Record<string, unknown> {
  if (type === 'pie')
    return { tooltip: { trigger: 'item' }, series: [{ type: 'pie', radius: '50%', data: points }] };
  return {
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: points.map((p) => p.name) },
    yAxis: { type: 'value' },
    series: [{ type: type === 'line' ? 'line' : 'bar', data: points.map((p) => p.value) }],
  };
}

/** Line and column charts: name, value (numbers), categories, showGrid, showStyle, barColor (#0098FF). */
export function cartesianOption(
  type: 'bar' | 'line',
  props: Record<string, unknown>,
  points: Point[] | null = null,
): Record<string, unknown> {
  const c = color(props.barColor, '#0098FF');
  return {
    title: str(props.title) ? { text: str(props.title) } : undefined,
    tooltip: { trigger: 'axis' },
    grid: { show: bool(props.showGrid, true) },
    xAxis: {
      type: 'category',
      data: points ? points.map((p) => p.name) : strings(props.categories),
      splitLine: { show: bool(props.showGrid, true) },
    },
    yAxis: { type: 'value', splitLine: { show: bool(props.showGrid, true) } },
    series: [
      {
        type,
        name: str(props.name),
        data: points ? points.map((p) => p.value) : nums(props.value),
        smooth: type === 'line' && bool(props.smooth),
        itemStyle: { color: c },
        label: { show: bool(props.showStyle) },
      },
    ],
  };
}

/**
 * A chart kind whose `dataset` prop names a dataset: one point per row, named by the label column
 * (`labelKey`; by default the first column) and sized by the value column (`valueKey`; by default
 * the first number column). Null when the kind draws its own static values.
 */
export function datasetPoints(
  props: Record<string, unknown>,
  rows: Record<string, unknown>[],
  fields: { key: string; type?: string }[] | undefined,
): Point[] | null {
  if (!str(props.dataset).trim()) return null;
  const cols = fields ?? [];
  const label = str(props.labelKey) || cols.find((f) => f.type !== 'number')?.key || cols[0]?.key || '';
  const value = str(props.valueKey) || cols.find((f) => f.type === 'number' && f.key !== label)?.key || '';
  return rows.map((r) => {
    const v = Number(r[value]);
    const name = r[label];
    return {
      name: name === null || name === undefined ? '' : String(name),
      value: Number.isFinite(v) ? v : 0,
    };
  });
}

/**
 * What a chart shows, as text for screen readers (a canvas says nothing): its title, then each
 * point as "name value", e.g. "Sales by month: 2025-06 1200; 2025-07 1350".
 */
export function chartLabel(title: string, points: readonly Point[]): string {
  const body = points.map((p) => `${p.name} ${p.value}`).join('; ');
  return [title, body].filter(Boolean).join(': ');
}
