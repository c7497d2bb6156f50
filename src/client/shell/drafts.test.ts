import { describe, expect, it } from 'vitest';
import { DRAFT_KEY_PREFIX, listDrafts } from './drafts.ts';

function store(entries: Record<string, string>) {
  const keys = Object.keys(entries);
  return {
    length: keys.length,
    key: (i: number) => keys[i] ?? null,
    getItem: (k: string) => entries[k] ?? null,
  };
}

describe('drafts list', () => {
  const many: Record<string, string> = {
    other: '{"flow":"x","time":99}',
    [`${DRAFT_KEY_PREFIX}bad`]: 'not json',
  };
  for (let i = 0; i < 10; i++) {
    many[`${DRAFT_KEY_PREFIX}d${i}`] = JSON.stringify({ flow: `f${i}`, time: 1000 + i, save: i % 2 === 0 });
  }
  it('none stored → empty', () => {
    expect(listDrafts(store({}), false)).toEqual([]);
  });
  it('shows the newest one by default, 8 in debug, skipping foreign keys and bad values', () => {
    expect(listDrafts(store(many), false).map((d) => d.id)).toEqual(['d9']);
    const dbg = listDrafts(store(many), true);
    expect(dbg).toHaveLength(8);
    expect(dbg[0]).toEqual({ id: 'd9', flow: 'f9', time: 1009, save: false, name: 'f9' });
    expect(dbg.at(-1)!.id).toBe('d2');
  });
  it('uses the name when given', () => {
    const s = store({ [`${DRAFT_KEY_PREFIX}a`]: JSON.stringify({ flow: 'f', time: 1, name: 'Order form' }) });
    expect(listDrafts(s, false)[0]!.name).toBe('Order form');
  });
});
