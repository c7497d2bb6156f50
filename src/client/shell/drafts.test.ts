import { describe, expect, it } from 'vitest';
import type { Draft } from '../runtime/drafts.ts';
import { listDrafts } from './drafts.ts';

describe('drafts list', () => {
  const many: Draft[] = Array.from({ length: 10 }, (_, i) => ({
    page: `p${i}`,
    form: `f${i}`,
    values: { n: i },
    savedAt: 1000 + ((i * 7) % 10),
  }));
  it('none stored → empty', () => {
    expect(listDrafts(false, [])).toEqual([]);
  });
  it('shows the newest one by default and 8 in debug', () => {
    expect(listDrafts(false, many).map((d) => d.id)).toEqual(['p7/f7']);
    const dbg = listDrafts(true, many);
    expect(dbg).toHaveLength(8);
    expect(dbg[0]).toEqual({ id: 'p7/f7', page: 'p7', flow: 'f7', time: 1009, save: false, name: 'f7' });
    expect(dbg.map((d) => d.time)).toEqual([...dbg.map((d) => d.time)].sort((a, b) => b - a));
  });
});
