import { describe, expect, it } from 'vitest';
import { cartesianOption, datasetPoints } from './chart-option.ts';

const rows = [
  { _id: '1-0', level: 'Gold', total: 150, n: 2 },
  { _id: '1-1', level: 'Silver', total: '30', n: 1 },
  { _id: '1-2', level: null, total: null, n: 0 },
];
const fields = [
  { key: 'level', type: 'text' },
  { key: 'total', type: 'number' },
  { key: 'n', type: 'number' },
];

describe('chart kinds over a dataset', () => {
  it('draw nothing of a dataset when none is named (their own values stay)', () => {
    expect(datasetPoints({}, rows, fields)).toBeNull();
    expect(datasetPoints({ dataset: '  ' }, rows, fields)).toBeNull();
  });

  it('take one point per row from the chosen label and value columns', () => {
    expect(datasetPoints({ dataset: 'd', labelKey: 'level', valueKey: 'n' }, rows, fields)).toEqual([
      { name: 'Gold', value: 2 },
      { name: 'Silver', value: 1 },
      { name: '', value: 0 },
    ]);
  });

  it('default to the first text column and the first number column', () => {
    expect(datasetPoints({ dataset: 'd' }, rows, fields)?.map((p) => [p.name, p.value])).toEqual([
      ['Gold', 150],
      ['Silver', 30],
      ['', 0],
    ]);
  });

  it('feed the column and line charts instead of their static values', () => {
    const points = datasetPoints({ dataset: 'd' }, rows, fields);
    const option = cartesianOption('bar', { categories: ['x'], value: [9] }, points) as {
      xAxis: { data: string[] };
      series: { data: number[] }[];
    };
    expect(option.xAxis.data).toEqual(['Gold', 'Silver', '']);
    expect(option.series[0]!.data).toEqual([150, 30, 0]);
    const own = cartesianOption('bar', { categories: ['x'], value: [9] }) as typeof option;
    expect(own.xAxis.data).toEqual(['x']);
    expect(own.series[0]!.data).toEqual([9]);
  });
});
