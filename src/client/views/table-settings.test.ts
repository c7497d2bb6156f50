/**
 * A data view within its table's settings (/system/data/{entity}): what the table switched off stays
 * off whatever the view asks; the table's page size unless the widget chose its own; the role
 * filter's chip text; a stored arrangement without a row height takes the table's.
 */
import { describe, expect, it } from 'vitest';
import type { Field } from '../../shared/api/fields.ts';
import { allFeatures, VIEW_FEATURES, widgetViewOptions, withinTable } from '../../shared/view-features.ts';
import { roleFilterText } from './role-filter-text.ts';
import { type LabelRule, labelOf, parseSettings } from './view-settings.ts';

const field = (code: string, name: string, alias?: string) =>
  ({ _field: code, _name: name, _option: alias ? { alias } : {} }) as unknown as Field;

describe('withinTable', () => {
  it('switches off what the table switched off, on a list entry with everything on', () => {
    const o = withinTable(allFeatures(20), { off: ['export', 'print', 'row-height'], pageSize: 50 });
    const off = VIEW_FEATURES.filter((f) => !o.features[f]);
    expect(off).toEqual(['export', 'print', 'row-height']);
    expect(o.pageSize).toBe(50);
  });

  it('never re-enables: a widget that turns a switched-off feature on still has it off', () => {
    const widget = widgetViewOptions({ export: true, search: true, filter: true }, 20);
    const o = withinTable(widget, { off: ['export'], pageSize: 10 });
    expect(o.features.export).toBe(false);
    expect(o.features.search).toBe(true);
    expect(o.features.filter).toBe(true);
    // The widget's own narrowing stays: what it did not turn on is off.
    expect(o.features.print).toBe(false);
    // Its page size is the default one: the table's applies.
    expect(o.pageSize).toBe(10);
  });

  it("keeps a widget's own page size", () => {
    const o = withinTable(widgetViewOptions({}, 5), { off: [], pageSize: 50 });
    expect(o.pageSize).toBe(5);
  });

  it('ignores names that are not features', () => {
    const o = withinTable(allFeatures(), { off: ['nonsense', '__proto__'], pageSize: 20 });
    expect(VIEW_FEATURES.every((f) => o.features[f])).toBe(true);
  });
});

describe('roleFilterText', () => {
  const fields = [field('kind', 'Kind'), field('qty', 'Qty', 'Quantity'), field('due', 'Due')];
  it('names fields and operators in the user language', () => {
    const spec = {
      conditions: [
        { field: 'kind', opt: 'eq', value: 'odd' },
        { field: 'qty', opt: 'between', value: [1, 9] },
        { field: 'due', opt: 'preset', value: 'today' },
        { field: 'gone', opt: 'isnull' },
      ],
      match: 'and' as const,
    };
    expect(roleFilterText(spec, fields, 'en')).toBe(
      'Kind equals odd and Quantity between 1, 9 and Due Today and gone is empty',
    );
    expect(roleFilterText({ ...spec, match: 'or' }, fields, 'zh')).toBe(
      'Kind 等于 odd 或 Quantity 介于 1, 9 或 Due 今天 或 gone 为空',
    );
  });
});

describe('row height kept on the device', () => {
  it('is the table one (null) unless the user chose one', () => {
    expect(parseSettings({}).rowHeight).toBeNull();
    expect(parseSettings({ rowHeight: 'sideways' }).rowHeight).toBeNull();
    expect(parseSettings({ rowHeight: 'high' }).rowHeight).toBe('high');
  });
});

describe('row labels', () => {
  // Due holds the day's start in the project's zone; the view shows it as 2026-01-10.
  const row = { due: Date.parse('2026-01-10T00:00:00+08:00'), done: true, owner: 'a'.repeat(24), qty: 5 };
  const shown = (field: string) => ({ due: '2026-01-10', done: 'Yes', owner: 'Acme', qty: '5' })[field] ?? '';
  const rule = (field: string, opt: LabelRule['opt'], value?: string) => [
    { field, opt, color: 'red' as const, ...(value === undefined ? {} : { value }) },
  ];

  it('match what the cell shows: a day, a relation by name, yes / no', () => {
    expect(labelOf(row, rule('due', 'eq', '2026-01-10'), shown)).toBe('red');
    expect(labelOf(row, rule('owner', 'eq', 'Acme'), shown)).toBe('red');
    expect(labelOf(row, rule('done', 'eq', 'Yes'), shown)).toBe('red');
    expect(labelOf(row, rule('due', 'ne', '2026-01-10'), shown)).toBeUndefined();
    expect(labelOf(row, rule('owner', 'contain', 'cm'), shown)).toBe('red');
  });

  it('order days as days and numbers as numbers', () => {
    expect(labelOf(row, rule('due', 'gt', '2026-01-09'), shown)).toBe('red');
    expect(labelOf(row, rule('due', 'lt', '2026-01-10'), shown)).toBeUndefined();
    expect(labelOf(row, rule('qty', 'gt', '4'), shown)).toBe('red');
    expect(labelOf(row, rule('qty', 'lt', '5'), shown)).toBeUndefined();
  });

  it('still match the stored value, and treat an empty list as empty', () => {
    expect(labelOf(row, rule('done', 'eq', 'true'))).toBe('red');
    expect(labelOf({ tags: [] }, rule('tags', 'isnull'))).toBe('red');
    expect(labelOf({ tags: ['x'] }, rule('tags', 'notnull'))).toBe('red');
  });
});
