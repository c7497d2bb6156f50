import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countUp, eased } from './count-up.ts';

describe('count-up', () => {
  let frames: ((now: number) => void)[];
  let now: number;
  beforeEach(() => {
    frames = [];
    now = 1000;
    vi.stubGlobal('requestAnimationFrame', (f: (now: number) => void) => frames.push(f));
    vi.stubGlobal('cancelAnimationFrame', () => {
      frames = [];
    });
    vi.spyOn(performance, 'now').mockImplementation(() => now);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  const step = (ms: number) => {
    now += ms;
    const due = frames;
    frames = [];
    for (const f of due) f(now);
  };

  it('eases from 0 to the value and stops there', () => {
    expect(eased(100, 0)).toBe(0);
    expect(eased(100, 0.5)).toBe(87.5);
    expect(eased(100, 1)).toBe(100);
    expect(eased(100, 7)).toBe(100);
  });

  it('drives every counter from one frame callback and ends on the exact value', () => {
    const a = { textContent: '' } as HTMLElement;
    const b = { textContent: '' } as HTMLElement;
    countUp(a, 200, 1000, 0);
    countUp(b, 3.5, 500, 2);
    expect(frames).toHaveLength(1);
    expect(a.textContent).toBe('0');
    step(250);
    expect(frames).toHaveLength(1);
    expect(Number(a.textContent)).toBeGreaterThan(0);
    expect(Number(a.textContent)).toBeLessThan(200);
    step(250);
    expect(b.textContent).toBe('3.50');
    step(600);
    expect(a.textContent).toBe('200');
    expect(frames).toHaveLength(0);
  });

  it('stopping shows the final value; no animation when the duration is 0', () => {
    const a = { textContent: '' } as HTMLElement;
    const stop = countUp(a, 42, 1000, 1);
    step(100);
    stop();
    expect(a.textContent).toBe('42.0');
    expect(frames).toHaveLength(0);
    const b = { textContent: '' } as HTMLElement;
    countUp(b, 7, 0, 0);
    expect(b.textContent).toBe('7');
    expect(frames).toHaveLength(0);
  });
});
