import { describe, expect, it } from 'vitest';
import type { FieldRow } from '../../../src/server/data/schema-service.ts';
import { CellError, cellToInput, formatDate, plainCell } from '../../../src/server/data/xlsx/cells.ts';
import { cellOf, exportFields, sheetName, textCell } from '../../../src/server/data/xlsx/export.ts';
import { barcodePng } from '../../../src/server/data/xlsx/images.ts';

function field(type: string, options: Record<string, unknown> = {}): FieldRow {
  return {
    id: '0'.repeat(24),
    project_id: '1'.repeat(24),
    entity_id: '2'.repeat(24),
    name: 'F',
    code: 'f',
    type,
    relate_id: null,
    options: JSON.stringify(options),
    hide: 0,
    sort: 0,
    status: 'normal',
    created_at: 0,
    updated_at: 0,
  };
}

/** Beijing wall clock → epoch ms. */
const sh = (y: number, m: number, d: number, h = 0, mi = 0) => Date.UTC(y, m - 1, d, h - 8, mi);

describe('cells → save input', () => {
  const cases: [string, unknown, unknown, Record<string, unknown>?][] = [
    ['number', 12.5, 12.5],
    ['number', ' 1,234.5 ', 1234.5],
    ['date', new Date(Date.UTC(2024, 2, 15)), sh(2024, 3, 15)],
    ['date', '2024/03/15 08:30', sh(2024, 3, 15, 8, 30)],
    ['date', 45366, sh(2024, 3, 15)],
    ['date', sh(2024, 3, 15), sh(2024, 3, 15)],
    ['time', '08:30', '08:30'],
    ['time', new Date(Date.UTC(1899, 11, 30, 17, 45, 10)), '17:45:10'],
    ['time', 0.5, '12:00:00'],
    ['collection', 'A, B、C;D', ['A', 'B', 'C', 'D']],
    ['image', '/a.png /b.png', ['/a.png', '/b.png']],
    ['image', '/a.png', '/a.png'],
    ['relate', ' ACME ', 'ACME'],
    ['string', '=1+1', '=1+1'],
    ['string', 'open', 'open', { info: { enable: true, list: ['open', 'closed'] } }],
    ['string', '   ', null],
  ];
  it.each(cases)('%s %j', (type, raw, expected, options) => {
    expect(cellToInput(field(type, options), raw)).toEqual(expected);
  });
  it.each([
    ['number', 'abc'],
    ['number', { x: 1 }],
    ['date', 'someday'],
    ['string', 'maybe', { info: { enable: true, list: ['open'] } }],
    ['number', 3, { info: { enable: true, list: ['1', '2'] } }],
  ] as [string, unknown, Record<string, unknown>?][])('refuses %s %j', (type, raw, options) => {
    expect(() => cellToInput(field(type, options), raw)).toThrow(CellError);
  });
  it('reads rich text, formulas and hyperlinks as their text or result', () => {
    expect(plainCell({ richText: [{ text: 'a' }, { text: 'b' }] })).toBe('ab');
    expect(plainCell({ formula: 'A1*2', result: 4 } as never)).toBe(4);
    expect(plainCell({ text: 'site', hyperlink: 'http://x' })).toBe('site');
    expect(plainCell({ error: '#REF!' } as never)).toBe(null);
  });
});

describe('export cells', () => {
  it('keeps formula-like text as text', () => {
    for (const s of ['=1+1', '+1', '-1', '@x', '\t=1', '\r=1'])
      expect(textCell(s)).toEqual({ value: s, numFmt: '@' });
    expect(textCell('plain')).toEqual({ value: 'plain' });
  });
  it('dates as Beijing wall clock, relations as names', () => {
    const d = field('date');
    expect(cellOf(d, { f: sh(2024, 3, 15) })).toEqual({
      value: new Date(Date.UTC(2024, 2, 15)),
      numFmt: 'yyyy-mm-dd',
    });
    expect(cellOf(d, { f: sh(2024, 3, 15, 9, 5) }).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(cellOf(field('relate'), { f: 'id', _f: '=evil' })).toEqual({ value: '=evil', numFmt: '@' });
    expect(formatDate(sh(2024, 1, 2, 3, 4))).toBe('2024-01-02 03:04:00');
  });
  it('sheet names drop forbidden characters', () => {
    expect(sheetName('a[b]:c*d?e/f\\g')).toBe('abcdefg');
    expect(sheetName('[]')).toBe('Sheet1');
    expect(sheetName('x'.repeat(40)).length).toBe(31);
  });
  it('export fields: at most 30, only known ones', () => {
    const fields = Array.from({ length: 35 }, (_, i) => ({ ...field('string'), code: `f${i}` }));
    const meta = { fields, byCode: new Map(fields.map((f) => [f.code, f])) } as never;
    expect(exportFields(meta, undefined)).toHaveLength(30);
    expect(() => exportFields(meta, ['nope'])).toThrow();
    expect(() =>
      exportFields(
        meta,
        fields.map((f) => f.code),
      ),
    ).toThrow();
  });
  it('barcodes are PNGs; text with spaces is refused', () => {
    const png = barcodePng('ABC123');
    expect(png?.subarray(1, 4).toString()).toBe('PNG');
    expect(barcodePng('has space')).toBe(null);
    expect(barcodePng('')).toBe(null);
  });
});
