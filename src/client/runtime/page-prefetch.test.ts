import { describe, expect, it } from 'vitest';
import { WIDGETS } from '../../../widgets/index.ts';
import { COMMON_KINDS, hasRenderChunk, kindsOf, loadRenders } from './page-prefetch.ts';

describe('render chunk manifest', () => {
  it('knows the render chunk of every registered kind (folder name = kind)', () => {
    const missing = WIDGETS.map((w) => w.kind).filter((k) => !hasRenderChunk(k));
    expect(missing).toEqual([]);
    expect(COMMON_KINDS.every(hasRenderChunk)).toBe(true);
    expect(hasRenderChunk('no-such-kind')).toBe(false);
  });

  it('collects the kinds of nested containers in one walk', () => {
    const doc = {
      widgets: [
        { kind: 'text' },
        { kind: 'block', children: [{ kind: 'button' }, { kind: 'block', children: [{ kind: 'table' }] }] },
        { kind: 7 },
      ],
    };
    expect([...kindsOf(doc)].sort()).toEqual(['block', 'button', 'table', 'text']);
  });

  it('loads the render modules the registry then uses, and skips unknown kinds', async () => {
    const loaded = (await loadRenders(['text', 'no-such-kind'])) as Record<string, unknown>[];
    expect(loaded).toHaveLength(1);
    expect(Object.keys(loaded[0]!)).toContain('TextWidget');
  });
});
