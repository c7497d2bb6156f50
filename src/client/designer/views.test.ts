import { describe, expect, it } from 'vitest';
import { defineWidget, type WidgetDef } from '../../../widgets/define.ts';
import { getWidget } from '../../../widgets/index.ts';
import { BATCH, distanceFromView, nextBatchSize } from './reveal.ts';
import { kindsSettled, loadKinds, viewState } from './views.ts';

const schema = { type: 'object', properties: {}, additionalProperties: false };
const meta = { title: { zh: '测', en: 'T' }, icon: 'X', size: { width: 10, height: 10 } };

describe('kind views on the canvas', () => {
  it('loads a batch of kinds in one go; each is loading until its code is in, then drawn', async () => {
    const text = getWidget('text')!;
    const button = getWidget('button')!;
    const batch = loadKinds(['text', 'button', 'text', 'no-such-kind']);
    if (!text.loadedRender()) expect(viewState(text)).toEqual({ loading: true });
    await batch;
    expect(kindsSettled(['text', 'button', 'no-such-kind'])).toBe(true);
    expect(viewState(text)).toEqual({ view: text.loadedRender() });
    expect(viewState(button)).toEqual({ view: button.loadedRender() });
  });

  it('a kind whose code fails to load is settled with the reason, and the batch still ends', async () => {
    const bad = defineWidget({
      kind: 'bad-view',
      category: 'other',
      schema,
      render: () => Promise.reject(new Error('chunk failed')),
      meta,
    }) as unknown as WidgetDef;
    const lookup = (k: string) => (k === 'bad-view' ? bad : getWidget(k));
    expect(kindsSettled(['bad-view'], lookup)).toBe(false);
    await loadKinds(['bad-view', 'text'], lookup);
    expect(kindsSettled(['bad-view', 'text'], lookup)).toBe(true);
    expect(viewState(bad)).toEqual({ error: 'chunk failed' });
  });
});

describe('filling in the canvas after the first paint', () => {
  it('batches grow while quick and shrink when slow, within bounds', () => {
    expect(nextBatchSize(BATCH.first, 5)).toBe(BATCH.first * 2);
    expect(nextBatchSize(BATCH.max, 5)).toBe(BATCH.max);
    expect(nextBatchSize(200, (BATCH.fastMs + BATCH.slowMs) / 2)).toBe(200);
    expect(nextBatchSize(300, BATCH.slowMs + 1)).toBe(150);
    expect(nextBatchSize(BATCH.min, 1000)).toBe(BATCH.min);
  });

  it('orders boxes by their distance from the viewport', () => {
    expect(distanceFromView({ top: 10, bottom: 50 }, 900)).toBe(0);
    expect(distanceFromView({ top: -80, bottom: -30 }, 900)).toBe(30);
    expect(distanceFromView({ top: 1000, bottom: 1040 }, 900)).toBe(100);
    expect(distanceFromView({ top: -10, bottom: 2000 }, 900)).toBe(0);
  });
});
