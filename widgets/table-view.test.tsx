// @vitest-environment jsdom
/**
 * The table kinds in the runtime: bound to a table they ask the runtime for the end user's data view
 * (`dataView`) with their toggles as its features (each of the spec's 17 switches its own), their
 * bound programs and declared columns, and turn what the user does in it into their declared events;
 * over a dataset they ask for the dataset's (read-only) view; without a runtime view (designer
 * canvas) they draw their picture instead.
 */
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { VIEW_FEATURES } from '../src/shared/view-features.ts';
import { getWidget } from './index.ts';
import {
  type DataViewRequest,
  staticRuntime,
  type WidgetEvent,
  WidgetRuntimeProvider,
} from './kit/widget-context.ts';
import './dom-shims.ts';

const KINDS = ['table', 'advanced-table'] as const;
beforeAll(() => Promise.all(KINDS.map((k) => getWidget(k)!.loadRender())), 120_000);

/** Renders a kind with a runtime that has a data view; answers what it asked and what it fired. */
async function draw(kind: string, props: Record<string, unknown>) {
  const def = getWidget(kind)!;
  const asked: DataViewRequest[] = [];
  const fired: WidgetEvent[] = [];
  const runtime = staticRuntime({
    mode: 'runtime',
    dispatch: (e) => fired.push(e),
    dataView: (r) => {
      asked.push(r);
      return createElement('div', { 'data-testid': 'the-view' });
    },
  });
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  await act(async () => {
    root.render(
      createElement(
        WidgetRuntimeProvider,
        { runtime },
        createElement(def.loadedRender()!, {
          id: 'w1',
          props: { ...structuredClone(def.defaults), ...props },
        }),
      ),
    );
  });
  const shown = host.querySelector('[data-testid="the-view"]') !== null;
  await act(async () => root.unmount());
  host.remove();
  return { asked, fired, shown };
}

describe.each(KINDS)('%s', (kind) => {
  it('bound to a table, is the data view with every feature off by default', async () => {
    const { asked, shown } = await draw(kind, { entity: 'orders', pageSize: 50 });
    expect(shown).toBe(true);
    const r = asked.at(-1)!;
    expect(r).toMatchObject({ widget: 'w1', entity: 'orders' });
    expect(r.options.pageSize).toBe(50);
    expect(Object.values(r.options.features).every((on) => on === false)).toBe(true);
    expect(r.options.programAuth).toBe(true);
  });

  it.each(VIEW_FEATURES)('the toggle of "%s" switches that feature alone', async (feature) => {
    const prop =
      feature === 'row-height' ? 'rowHeight' : kind === 'table' && feature === 'summary' ? 'stat' : feature;
    const { asked } = await draw(kind, { entity: 'orders', [prop]: true });
    const on = Object.entries(asked.at(-1)!.options.features)
      .filter(([, v]) => v)
      .map(([k]) => k);
    expect(on).toEqual([feature]);
  });

  it('over a dataset, is the data view of the dataset', async () => {
    const { asked, shown } = await draw(kind, { dataset: 'ds1', sort: true, pageSize: 10 });
    expect(shown).toBe(true);
    expect(asked.at(-1)).toMatchObject({ widget: 'w1', dataset: 'ds1' });
    expect(asked.at(-1)!.options.features.sort).toBe(true);
  });

  it('bound to nothing, or where the runtime has no view (the designer), draws its picture', async () => {
    expect((await draw(kind, { entity: '' })).shown).toBe(false);
    // antd's table in a DOM, on a busy machine.
  }, 60_000);
});

describe('table', () => {
  it('passes its bound programs and selection, and fires its declared events from the view', async () => {
    const { asked, fired } = await draw('table', {
      entity: 'orders',
      select: true,
      multiple: true,
      remove: true,
      programs: ['p1', 'p2'],
    });
    const r = asked.at(-1)!;
    expect(r.programs).toEqual(['p1', 'p2']);
    expect(r.options).toMatchObject({ select: true, multiple: true, remove: true });
    const row = { _id: 'r1' };
    r.onEvent?.({ type: 'rowClick', row });
    r.onEvent?.({ type: 'search', text: 'ann' });
    r.onEvent?.({ type: 'refresh' });
    r.onEvent?.({ type: 'export' });
    r.onEvent?.({ type: 'page', index: 2, size: 20 });
    r.onEvent?.({ type: 'sort', field: 'qty', order: 'asc' });
    expect(fired.map((e) => [e.event, e.payload])).toEqual([
      ['onRowClick', row],
      ['onSearch', 'ann'],
      ['onRefresh', undefined],
      ['onExport', undefined],
      ['onPageChange', { index: 2, size: 20 }],
    ]);
    const declared = getWidget('table')!.events.map((e) => e.name);
    for (const e of fired) expect(declared).toContain(e.event);
  });
});

describe('advanced-table', () => {
  it('passes its declared columns and border, and fires onChange on paging and sorting', async () => {
    const { asked, fired } = await draw('advanced-table', {
      entity: 'orders',
      bordered: true,
      columns: [
        { field: 'qty', title: 'Stock', width: 90, fixed: 'left', sortable: true },
        { field: 'name', fixed: 'none' },
      ],
    });
    const r = asked.at(-1)!;
    expect(r.bordered).toBe(true);
    expect(r.columns).toEqual([
      { field: 'qty', title: 'Stock', width: 90, fixed: 'left', sortable: true },
      { field: 'name' },
    ]);
    r.onEvent?.({ type: 'page', index: 3, size: 20 });
    r.onEvent?.({ type: 'sort', field: 'qty', order: 'desc' });
    r.onEvent?.({ type: 'search', text: 'x' });
    expect(fired.map((e) => [e.event, e.payload])).toEqual([
      ['onChange', { page: 3, sort: null }],
      ['onChange', { page: 1, sort: { field: 'qty', order: 'descend' } }],
    ]);
  });
});
