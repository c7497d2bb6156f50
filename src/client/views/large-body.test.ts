import { describe, expect, it } from 'vitest';
import {
  columnWindow,
  edgeShadows,
  fitWidths,
  OVERSCAN_Y,
  rowSlots,
  rowWindow,
  stickies,
} from './large-body.ts';

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

describe('columnWindow', () => {
  const widths = [40, 160, 160, 160, 160, 160, 110];
  it('draws the columns in view and those within the overscan either side', () => {
    // Columns at 0, 40, 200, 360, 520, 680, 840; a 300 px view scrolled to 250 shows 200..550.
    expect(columnWindow(widths, 250, 300, 0)).toEqual([2, 5]);
    expect(columnWindow(widths, 250, 300, 100)).toEqual([1, 5]);
  });
  it('counts a column touching the view only when it overlaps it', () => {
    // The view is 200..360: column 2 exactly; columns 1 (ends at 200) and 3 (starts at 360) are out.
    expect(columnWindow(widths, 200, 160, 0)).toEqual([2, 3]);
  });
  it('stays within the columns, and draws none without any', () => {
    expect(columnWindow(widths, 0, 5000)).toEqual([0, 7]);
    expect(columnWindow(widths, 0, 100, 0)).toEqual([0, 2]);
    expect(columnWindow(widths, 10_000, 100, 0)).toEqual([0, 0]);
    expect(columnWindow([], 0, 100)).toEqual([0, 0]);
  });
});

describe('rowSlots', () => {
  it('draws the window and every fixed column, the columns between them as one gap', () => {
    const cols = [
      { width: 40, fixed: 'left' as const },
      { width: 100 },
      { width: 100 },
      { width: 100 },
      { width: 100 },
      { width: 100 },
      { width: 110, fixed: 'right' as const },
    ];
    expect(rowSlots(cols, [3, 5])).toEqual([0, { gap: 200 }, 3, 4, { gap: 100 }, 6]);
    expect(rowSlots(cols, [0, 7])).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
  it('leaves nothing after the last drawn cell, and keeps the room of columns before the first', () => {
    const cols = [{ width: 50 }, { width: 60 }, { width: 70 }];
    expect(rowSlots(cols, [1, 2])).toEqual([{ gap: 50 }, 1]);
  });
  it('keeps every cell in the place its column has', () => {
    const cols = [
      { width: 40, fixed: 'left' as const },
      { width: 90 },
      { width: 70 },
      { width: 30 },
      { width: 80 },
    ];
    const slots = rowSlots(cols, [2, 4]);
    let x = 0;
    const at = new Map<number, number>();
    for (const s of slots) {
      if (typeof s === 'number') {
        at.set(s, x);
        x += cols[s]!.width;
      } else x += s.gap;
    }
    expect([...at]).toEqual([
      [0, 0],
      [2, 130],
      [3, 200],
    ]);
  });
});

describe('edgeShadows', () => {
  const cols = [
    { width: 40, fixed: 'left' as const },
    { width: 56, fixed: 'left' as const },
    { width: 160 },
    { width: 160 },
    { width: 110, fixed: 'right' as const },
  ];
  const sticks = stickies(cols);
  it('shows the start edge once scrolled, the end edge until scrolled to the end', () => {
    expect(edgeShadows(cols, sticks, 0, 200)).toEqual([false, false, false, false, true]);
    expect(edgeShadows(cols, sticks, 100, 200)).toEqual([false, true, false, false, true]);
    expect(edgeShadows(cols, sticks, 200, 200)).toEqual([false, true, false, false, false]);
  });
  it('shows nothing when the body does not scroll sideways', () => {
    expect(edgeShadows(cols, sticks, 0, 0)).toEqual([false, false, false, false, false]);
  });
  it('shows a start cell placed after scrolling columns only once they are scrolled past', () => {
    const mid = [{ width: 100 }, { width: 50, fixed: 'left' as const }, { width: 300 }];
    const s = stickies(mid);
    expect(edgeShadows(mid, s, 100, 300)).toEqual([false, false, false]);
    expect(edgeShadows(mid, s, 101, 300)).toEqual([false, true, false]);
  });
});
