import { describe, expect, it } from 'vitest';
import { fitWidths, OVERSCAN_Y, rowWindow, stickies } from './large-body.ts';

describe('rowWindow', () => {
  it('draws the rows in view and 5 either side', () => {
    // 40 px rows, 400 px high, scrolled to row 100: rows 100..109 in view.
    expect(rowWindow(4000, 400, 40, 1000)).toEqual([100 - OVERSCAN_Y, 110 + OVERSCAN_Y]);
  });
  it('counts a row partly in view', () => {
    expect(rowWindow(4020, 400, 40, 1000, 0)).toEqual([100, 111]);
  });
  it('stays within the rows at the top and the bottom', () => {
    expect(rowWindow(0, 400, 40, 1000)).toEqual([0, 15]);
    expect(rowWindow(40_000 - 400, 400, 40, 1000)).toEqual([985, 1000]);
    expect(rowWindow(0, 400, 40, 3)).toEqual([0, 3]);
  });
  it('draws nothing without rows and takes a scroll past the end or before the start', () => {
    expect(rowWindow(0, 400, 40, 0)).toEqual([0, 0]);
    expect(rowWindow(1e9, 400, 40, 10)).toEqual([10, 10]);
    expect(rowWindow(-50, 400, 40, 1000, 0)).toEqual([0, 10]);
  });
});

describe('stickies', () => {
  it('places fixed columns as antd does: left after the fixed before, right before the fixed after', () => {
    const s = stickies([
      { width: 40, fixed: 'left' },
      { width: 56, fixed: 'left' },
      { width: 160 },
      { width: 160, fixed: 'right' },
      { width: 110, fixed: 'right' },
    ]);
    expect(s[0]).toMatchObject({ side: 'left', offset: 0, edge: false });
    expect(s[1]).toMatchObject({ side: 'left', offset: 40, edge: true });
    expect(s[2]).toBeNull();
    expect(s[3]).toMatchObject({ side: 'right', offset: 110, edge: true });
    expect(s[4]).toMatchObject({ side: 'right', offset: 0, edge: false });
  });
  it('stacks left cells above right ones, as rc-table does', () => {
    const s = stickies([
      { width: 10, fixed: 'left' },
      { width: 10, fixed: 'left' },
      { width: 10, fixed: 'right' },
    ]);
    expect(s[0]!.z).toBeLessThan(s[1]!.z);
    expect(s[2]!.z).toBeLessThan(s[0]!.z);
  });
  it('has nothing to place without fixed columns', () => {
    expect(stickies([{ width: 10 }, { width: 20 }])).toEqual([null, null]);
  });
});

describe('fitWidths', () => {
  it('keeps widths that fill the space or more', () => {
    expect(fitWidths([100, 200], 250, [true, true])).toEqual([100, 200]);
    expect(fitWidths([100, 200], 300, [true, true])).toEqual([100, 200]);
  });
  it('shares the extra among the stretching columns by their widths, to the pixel', () => {
    const out = fitWidths([40, 100, 200, 110], 1001, [false, true, true, false]);
    expect(out[0]).toBe(40);
    expect(out[3]).toBe(110);
    expect(out[2]! / out[1]!).toBeCloseTo(2, 1);
    expect(out.reduce((a, w) => a + w, 0)).toBe(1001);
  });
  it('keeps widths when no column may stretch', () => {
    expect(fitWidths([40, 110], 500, [false, false])).toEqual([40, 110]);
  });
});
