import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createReloadGate } from './reload-gate.ts';

describe('reload gate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const cases: { name: string; asks: (boolean | number)[]; fired: boolean[] }[] = [
    // One save heard on the bus, by the page and on the socket: one quiet load.
    { name: 'quiet reloads at once are one', asks: [true, true, true], fired: [true] },
    { name: 'quiet reloads inside the window are one', asks: [true, 60, true], fired: [true] },
    { name: 'quiet reloads past the window are two', asks: [true, 150, true], fired: [true, true] },
    // The refresh button after a live notice: the button's load covers the notice's change.
    { name: 'a loud reload takes a waiting quiet one along', asks: [true, false], fired: [false] },
    { name: 'loud reloads each load', asks: [false, false], fired: [false, false] },
    { name: 'a quiet reload after a loud one still loads', asks: [false, true], fired: [false, true] },
  ];
  it.each(cases)('$name', ({ asks, fired }) => {
    const got: boolean[] = [];
    const gate = createReloadGate(100, (quiet) => got.push(quiet));
    for (const a of asks) {
      if (typeof a === 'number') vi.advanceTimersByTime(a);
      else gate.request(a);
    }
    vi.advanceTimersByTime(1000);
    expect(got).toEqual(fired);
  });

  it('a waiting reload is dropped when the view goes', () => {
    const got: boolean[] = [];
    const gate = createReloadGate(100, (quiet) => got.push(quiet));
    gate.request(true);
    gate.cancel();
    vi.advanceTimersByTime(1000);
    expect(got).toEqual([]);
  });
});
