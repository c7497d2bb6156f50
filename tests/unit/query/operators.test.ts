/** Every operator on every type: one case table, one runner. */
import { describe, expect, it } from 'vitest';
import { match, sh } from './fixtures.ts';

type Case = [type: string, opt: string, value: unknown, expected: string[]];
const ALL = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];

const cases: Case[] = [
  // text: case-sensitive, % and _ literal, negations skip empty values
  ['text', 'contain', 'pple', ['r1', 'r2']],
  ['text', 'contain', 'Apple', ['r1']],
  ['text', 'contain', '%', ['r3']],
  ['text', 'contain', '_', ['r3']],
  ['text', 'contain', 'a%', []],
  ['text', 'notcontain', 'pple', ['r3', 'r6']],
  ['text', 'eq', 'apple', ['r2']],
  ['text', 'eq', 'APPLE', []],
  ['text', 'ne', 'apple', ['r1', 'r3', 'r6']],
  ['text', 'start', 'App', ['r1']],
  ['text', 'start', '100%', ['r3']],
  ['text', 'end', 'e', ['r1', 'r2']],
  ['text', 'end', '_off', ['r3']],
  ['text', 'isnull', undefined, ['r4', 'r5']],
  ['text', 'notnull', undefined, ['r1', 'r2', 'r3', 'r6']],
  ['text', 'contain', '', ALL],
  // number
  ['number', 'eq', 10, ['r1']],
  ['number', 'eq', '10', ['r1']],
  ['number', 'eq', 0, ['r6']],
  ['number', 'ne', 10, ['r2', 'r3', 'r6']],
  ['number', 'gt', 0, ['r1', 'r2']],
  ['number', 'lt', 0, ['r3']],
  ['number', 'gte', 0, ['r1', 'r2', 'r6']],
  ['number', 'lte', 2.5, ['r2', 'r3', 'r6']],
  ['number', 'between', [0, 10], ['r1', 'r2', 'r6']],
  ['number', 'between', [10, 0], ['r1', 'r2', 'r6']],
  ['number', 'between', [10, 10], ['r1']],
  ['number', 'between', [null, 2.5], ['r2', 'r3', 'r6']],
  ['number', 'between', [2.5, ''], ['r1', 'r2']],
  ['number', 'between', [null, null], ALL],
  ['number', 'notbetween', [0, 5], ['r1', 'r3']],
  ['number', 'notbetween', [5, 0], ['r1', 'r3']],
  ['number', 'notbetween', [10, 10], ['r2', 'r3', 'r6']],
  ['number', 'notbetween', [null, 0], ['r1', 'r2']],
  ['number', 'notbetween', [0, null], ['r3']],
  ['number', 'isnull', undefined, ['r4', 'r5']],
  ['number', 'notnull', undefined, ['r1', 'r2', 'r3', 'r6']],
  ['number', 'eq', null, ALL],
  // date: whole days in Asia/Shanghai
  ['date', 'eq', '2024-03-15', ['r1']],
  ['date', 'eq', sh(2024, 3, 15, 23, 59), ['r1']],
  ['date', 'eq', '2024-03-15T01:00:00Z', ['r1']],
  ['date', 'eq', '2024-03-14T16:30:00Z', ['r1']],
  ['date', 'ne', '2024-03-15', ['r2', 'r3', 'r6']],
  ['date', 'lt', '2024-03-15', ['r2', 'r6']],
  ['date', 'gt', '2024-03-15', ['r3']],
  ['date', 'between', ['2024-03-14', '2024-03-15'], ['r1', 'r2']],
  ['date', 'between', ['2024-03-15', '2024-03-14'], ['r1', 'r2']],
  ['date', 'between', ['2024-03-15', null], ['r1', 'r3']],
  ['date', 'between', [null, '2024-03-14'], ['r2', 'r6']],
  ['date', 'between', [null, null], ALL],
  ['date', 'between', ['yesterday', 'today'], ['r1', 'r2']],
  ['date', 'eq', 'today', ['r1']],
  ['date', 'today', undefined, ['r1']],
  ['date', 'yesterday', undefined, ['r2']],
  ['date', 'tomorrow', undefined, ['r3']],
  ['date', 'thisYear', undefined, ['r1', 'r2', 'r3', 'r6']],
  ['date', 'ne', 'thisWeek', ['r6']],
  ['date', 'gt', 'yesterday', ['r1', 'r3']],
  ['date', 'isnull', undefined, ['r4', 'r5']],
  ['date', 'notnull', undefined, ['r1', 'r2', 'r3', 'r6']],
  // time
  ['time', 'eq', '08:30', ['r1', 'r3']],
  ['time', 'eq', '8:30:00', ['r1', 'r3']],
  ['time', 'eq', '23:59:59', ['r6']],
  // relate
  ['relate', 'set', ['u1'], ['r1', 'r3']],
  ['relate', 'set', ['u1', 'u3'], ['r1', 'r3', 'r6']],
  ['relate', 'set', 'u2', ['r2']],
  ['relate', 'set', [], ALL],
  ['relate', 'isnull', undefined, ['r4', 'r5']],
  ['relate', 'notnull', undefined, ['r1', 'r2', 'r3', 'r6']],
  // collection: any of the ids
  ['collection', 'set', ['t2'], ['r1', 'r2']],
  ['collection', 'set', ['t3', 't1'], ['r1', 'r6']],
  ['collection', 'isnull', undefined, ['r3', 'r4', 'r5']],
  ['collection', 'notnull', undefined, ['r1', 'r2', 'r6']],
  // _id
  ['_id', 'eq', 'r2', ['r2']],
  ['_id', 'ne', 'r2', ['r1', 'r3', 'r4', 'r5', 'r6']],
  ['_id', 'set', ['r1', 'r6', 'nope'], ['r1', 'r6']],
];

const FIELD: Record<string, string> = {
  text: 'name',
  number: 'qty',
  date: 'at',
  time: 'clock',
  relate: 'owner',
  collection: 'tags',
  _id: '_id',
};

describe('operators', () => {
  it.each(cases)('%s %s %j', (type, opt, value, expected) => {
    expect(match({ field: FIELD[type], type, opt, value })).toEqual(expected);
  });
});

describe('date value formats', () => {
  it.each([
    ['2024-03-15', ['r1']],
    ['2024/3/15', ['r1']],
    ['2024-03-15 23:59:59', ['r1']],
    ['2024-03-15T00:00', ['r1']],
    ['2024-03-14T16:00:00Z', ['r1']],
    ['2024-03-14T15:59:59Z', ['r2']],
    ['2024-03-15T01:00:00+0800', ['r1']],
    ['2024-03-14T20:00:00-05:00', ['r1']],
    [String(sh(2024, 3, 15, 1)), ['r1']],
  ])('%s', (value, expected) => {
    expect(match({ field: 'at', type: 'date', opt: 'eq', value })).toEqual(expected);
  });

  it('does not read a bare year as epoch ms', () => {
    expect(() => match({ field: 'at', type: 'date', opt: 'eq', value: '2024' })).toThrow(/expected a date/);
  });
});
