/** Bound tables on the canvas: one small read per table, shared and kept; columns from visible fields. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearDesignData,
  DESIGN_ROWS,
  type DesignDataSource,
  designData,
  designEntity,
} from './design-data.ts';

function counting(fail = false) {
  const calls: string[] = [];
  const source: DesignDataSource = {
    meta: async (p, e) => {
      calls.push(`meta ${p}/${e}`);
      if (fail) throw new Error('no such table');
      return {
        field: [
          { _key: 'title', _name: 'Title', _type: 'string', _hide: false },
          { _key: 'secret', _name: 'Secret', _type: 'string', _hide: true },
          { _key: 'old', _name: 'Old', _type: 'string', _hide: false, _status: 'disabled' },
          { _key: 'due', _name: 'Due', _type: 'date', _hide: false, _status: 'normal' },
        ],
      };
    },
    rows: async (p, e, body) => {
      calls.push(`rows ${p}/${e} ${JSON.stringify(body)}`);
      return { data: [{ _id: 'r1', title: 'First' }] };
    },
  };
  return { calls, source };
}

beforeEach(clearDesignData);

describe('design data of bound tables', () => {
  it('reads the field meta and the first rows once per table, whatever the number of widgets and renders', async () => {
    const { calls, source } = counting();
    const all = await Promise.all([1, 2, 3].map(() => designData('p1', 'orders', source)));
    await designData('p1', 'orders', source);
    expect(calls).toEqual(['meta p1/orders', `rows p1/orders {"page":{"index":1,"size":${DESIGN_ROWS}}}`]);
    expect(all[0]).toBe(all[2]);
    // Another table is its own read.
    await designData('p1', 'items', source);
    expect(calls).toHaveLength(4);
  });

  it('columns come from the visible fields (hidden ones marked, disabled ones left out)', async () => {
    const d = await designData('p1', 'orders', counting().source);
    expect(d.meta.fields).toEqual([
      { key: 'title', name: 'Title', type: 'string', hide: false },
      { key: 'secret', name: 'Secret', type: 'string', hide: true },
      { key: 'due', name: 'Due', type: 'date', hide: false },
    ]);
    expect(d.rows).toEqual([{ _id: 'r1', title: 'First' }]);
    expect(d.loading).toBe(false);
  });

  it('a failed read is a message, and is asked again next time', async () => {
    const bad = counting(true);
    const d = await designData('p1', 'gone', bad.source);
    expect(d).toMatchObject({ rows: [], loading: false, error: 'no such table' });
    await designData('p1', 'gone', bad.source);
    expect(bad.calls.filter((c) => c.startsWith('meta'))).toHaveLength(2);
  });

  it('only kinds showing a page of rows, bound to a table by name, get design data', () => {
    expect(designEntity('table', { entity: 'orders' })).toBe('orders');
    expect(designEntity('advanced-table', { entity: ' orders ' })).toBe('orders');
    expect(designEntity('table', { entity: '' })).toBeNull();
    expect(designEntity('table', { entity: { $expr: 'state.table' } })).toBeNull();
    expect(designEntity('text', { entity: 'orders' })).toBeNull();
    expect(designEntity('form', { entity: 'orders' })).toBeNull();
    expect(designEntity('list', { entity: 'orders' })).toBe('orders');
  });
});
