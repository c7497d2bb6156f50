import { describe, expect, it } from 'vitest';
import { FarItems, farIds, NEAR_VIEWPORTS, nearSpan, type SpanSource } from './far.ts';

describe('far widgets', () => {
  it('the near span is the visible part of the page and a viewport either side, unscaled', () => {
    // Page scrolled 1,000 px up in a 500 px box: page px 1,000–1,500 are visible.
    expect(nearSpan({ pageTop: -1000, height: 500, zoom: 1 })).toEqual({
      top: 1000 - 500 * NEAR_VIEWPORTS,
      bottom: 1500 + 500 * NEAR_VIEWPORTS,
    });
    // At zoom 0.5 the same box shows twice as much of the page.
    expect(nearSpan({ pageTop: -1000, height: 500, zoom: 0.5 })).toEqual({
      top: 2000 - 1000 * NEAR_VIEWPORTS,
      bottom: 3000 + 1000 * NEAR_VIEWPORTS,
    });
  });

  it('marks only widgets wholly outside the span', () => {
    const items = [
      ['above', 0, 99],
      ['touching-top', 50, 100],
      ['inside', 200, 300],
      ['across', 50, 5000],
      ['touching-bottom', 1000, 1200],
      ['below', 1001, 1100],
    ] as const;
    const visit: SpanSource = (v) => {
      for (const [id, t, b] of items) v(id, t, b);
    };
    expect([...farIds(visit, { top: 100, bottom: 1000 })].sort()).toEqual(['above', 'below']);
  });

  it('wakes only the widgets whose flag flips, and follows changes of the page', () => {
    const spans = new Map<string, [number, number]>([
      ['a', [0, 100]],
      ['b', [2000, 2100]],
      ['c', [5000, 5100]],
    ]);
    const far = new FarItems(
      (visit) => {
        for (const [id, [t, b]] of spans) visit(id, t, b);
      },
      { top: 0, bottom: 1000 },
    );
    expect(['a', 'b', 'c'].map((id) => far.isFar(id))).toEqual([false, true, true]);
    const woken: string[] = [];
    for (const id of ['a', 'b', 'c']) far.subscribe(id, () => woken.push(id));
    far.update({ top: 1500, bottom: 3000 });
    expect(woken.sort()).toEqual(['a', 'b']);
    expect(['a', 'b', 'c'].map((id) => far.isFar(id))).toEqual([true, false, true]);
    // A widget moved into view (same span) is woken by an update without a span.
    woken.length = 0;
    spans.set('c', [2500, 2600]);
    far.update();
    expect(woken).toEqual(['c']);
    expect(far.isFar('c')).toBe(false);
  });

  it('keeps exactly the far widgets on the page as widgets come and go', () => {
    const spans = new Map<string, [number, number]>([
      ['a', [0, 100]],
      ['b', [2000, 2100]],
    ]);
    const far = new FarItems(
      (visit) => {
        for (const [id, [t, b]] of spans) visit(id, t, b);
      },
      { top: 0, bottom: 1000 },
    );
    expect(far.isFar('b')).toBe(true);
    // b removed (a delete), then one with its id back near the top (an undo that moved it).
    spans.delete('b');
    far.update();
    expect(far.isFar('b')).toBe(false);
    const woken: string[] = [];
    far.subscribe('c', () => woken.push('c'));
    spans.set('c', [3000, 3100]);
    spans.set('b', [10, 20]);
    far.update();
    expect([far.isFar('b'), far.isFar('c')]).toEqual([false, true]);
    expect(woken).toEqual(['c']);
  });

  it('stops waking an unsubscribed widget', () => {
    const far = new FarItems((visit) => visit('a', 0, 10), { top: 0, bottom: 100 });
    let n = 0;
    const stop = far.subscribe('a', () => n++);
    stop();
    far.update({ top: 500, bottom: 600 });
    expect(n).toBe(0);
    expect(far.isFar('a')).toBe(true);
  });
});
