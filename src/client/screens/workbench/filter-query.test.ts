import { describe, expect, it } from 'vitest';
import type { Field } from '../../api/workbench.ts';
import { operatorsOf, toQuery } from './filter-query.ts';

const f = (code: string, type: Field['_type']) => ({ _field: code, _type: type }) as Field;
const fields = [
  f('name', 'string'),
  f('qty', 'number'),
  f('at', 'date'),
  f('pic', 'image'),
  f('who', 'relate'),
];

describe('filter conditions → query', () => {
  it('offers the operators of the field type', () => {
    expect(operatorsOf(f('x', 'string'))).toContain('contain');
    expect(operatorsOf(f('x', 'date'))).toContain('preset');
    // Images are text to the query language (tests/unit/field-types.test.ts), e.g. notnull: has a picture.
    expect(operatorsOf(f('x', 'image'))).toEqual(operatorsOf(f('x', 'string')));
    expect(operatorsOf(f('x', 'collection'))).toEqual(['set', 'isnull', 'notnull']);
  });
  it('builds typed clauses and drops incomplete ones', () => {
    expect(
      toQuery(
        [
          { id: 1, field: 'name', opt: 'contain', value: 'a' },
          { id: 2, field: 'qty', opt: 'between', value: [1, 5] },
          { id: 3, field: 'at', opt: 'preset', value: 'thisWeek' },
          { id: 4, field: 'who', opt: 'isnull' },
          { id: 5, field: 'name', opt: 'eq', value: '' },
          { id: 6, field: 'pic', opt: 'eq', value: 'x' },
        ],
        'and',
        fields,
      ),
    ).toEqual({
      $and: [
        { field: 'name', type: 'text', opt: 'contain', value: 'a' },
        { field: 'qty', type: 'number', opt: 'between', value: [1, 5] },
        { field: 'at', type: 'date', opt: 'thisWeek' },
        { field: 'who', type: 'relate', opt: 'isnull' },
        { field: 'pic', type: 'text', opt: 'eq', value: 'x' },
      ],
    });
  });
  it('any-of uses $or; nothing complete is no query', () => {
    expect(toQuery([{ id: 1, field: 'qty', opt: 'gt', value: 2 }], 'or', fields)).toEqual({
      $or: [{ field: 'qty', type: 'number', opt: 'gt', value: 2 }],
    });
    expect(toQuery([{ id: 1, field: 'qty', opt: 'gt' }], 'and', fields)).toBeUndefined();
  });
});
