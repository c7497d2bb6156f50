import { describe, expect, it } from 'vitest';
import { colorFor } from './colors.ts';
import { peersOf, selectionsByWidget } from './session.ts';

describe('presence from awareness states', () => {
  it('skips malformed states, caps names, keeps only string selections, orders self first', () => {
    const states = new Map<number, never>([
      [1, { user: { id: 'u1', name: 'Zed', color: '#123456' }, selection: ['a', 3, 'b'] } as never],
      [2, { user: { id: 'u2', name: 'x'.repeat(100), color: 'red;background:url(x)' } } as never],
      [3, { user: { name: 'no id' } } as never],
      [4, null as never],
      [5, { user: { id: 'u5', name: 'Amy' }, selection: 'a' } as never],
    ]);
    const peers = peersOf(states, 5);
    expect(peers.map((p) => p.clientId)).toEqual([5, 2, 1]);
    expect(peers[0]).toMatchObject({ self: true, name: 'Amy', selection: [] });
    expect(peers[1]!.name).toHaveLength(40);
    // A colour that is not a plain hex code is replaced by the user's own.
    expect(peers[1]!.color).toBe(colorFor('u2'));
    expect(peers[2]).toMatchObject({ color: '#123456', selection: ['a', 'b'] });
    const byWidget = selectionsByWidget(peers);
    expect([...byWidget.keys()]).toEqual(['a', 'b']);
    expect(byWidget.get('a')!.map((p) => p.clientId)).toEqual([1]);
  });

  it('gives each user a stable colour', () => {
    expect(colorFor('65a0c0ffee0000000000000a')).toBe(colorFor('65a0c0ffee0000000000000a'));
    const spread = new Set(
      Array.from({ length: 50 }, (_, i) => colorFor(`65a0c0ffee00000000000${String(i).padStart(3, '0')}`)),
    );
    expect(spread.size).toBeGreaterThan(5);
  });
});
