import { describe, expect, it } from 'vitest';
import { splitStale } from './view-filters.ts';

/** The table today: `kind` was text and is now a number; `title` was renamed `name`. */
const fields = [
  { key: 'name', type: 'string' },
  { key: 'kind', type: 'number' },
  { key: 'due', type: 'date' },
];

describe('stale saved conditions', () => {
  const cases = [
    { name: 'a field that fits', c: { field: 'name', opt: 'contain', value: 'x' }, stale: null },
    { name: 'a renamed or removed field', c: { field: 'title', opt: 'contain', value: 'x' }, stale: 'field' },
    {
      name: 'an operator the new type lacks',
      c: { field: 'kind', opt: 'contain', value: 'a' },
      stale: 'type',
    },
    { name: 'a value the new type refuses', c: { field: 'kind', opt: 'eq', value: 'alpha' }, stale: 'type' },
    { name: 'a number value on a number', c: { field: 'kind', opt: 'gt', value: 3 }, stale: null },
    { name: 'a no-value operator', c: { field: 'kind', opt: 'isnull' }, stale: null },
    { name: 'a date preset', c: { field: 'due', opt: 'preset', value: 'thisWeek' }, stale: null },
    { name: 'an unknown preset', c: { field: 'due', opt: 'preset', value: 'someday' }, stale: 'type' },
    { name: 'the id, never a saved field', c: { field: '_id', opt: 'eq', value: 'x' }, stale: 'field' },
  ] as const;
  it.each(cases)('$name', ({ c, stale }) => {
    const out = splitStale([c], fields);
    if (stale === null) {
      expect(out).toEqual({ fresh: [c], stale: [] });
    } else {
      expect(out.fresh).toEqual([]);
      expect(out.stale).toEqual([{ ...c, reason: stale }]);
    }
  });

  it('keeps the order of the rest', () => {
    const a = { field: 'name', opt: 'eq', value: 'a' };
    const b = { field: 'gone', opt: 'eq', value: 'b' };
    const c = { field: 'kind', opt: 'lt', value: 9 };
    const out = splitStale([a, b, c], fields);
    expect(out.fresh).toEqual([a, c]);
    expect(out.stale.map((s) => s.field)).toEqual(['gone']);
  });
});
