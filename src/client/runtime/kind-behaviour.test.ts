/**
 * The runtime asks a kind's definition, not a list of kind names: which event payload is a record,
 * which event submits a form, what data the kind reads, whether it is live.
 */
import { describe, expect, it } from 'vitest';
import type { PageDocument, WidgetInstance } from '../../shared/page-document.ts';
import type { ActionHost } from './actions.ts';
import { viewQuery, widgetQuery } from './data-source.ts';
import { pageDispatcher } from './dispatch.ts';
import { isLiveWidget } from './live.ts';
import { indexWidgets } from './page-context.ts';
import { createPageStore } from './page-store.ts';

const at = { x: 0, y: 0, w: 1, h: 1 };
function widget(id: string, kind: string, events?: WidgetInstance['events'], props = {}): WidgetInstance {
  return { id, kind, version: 1, props, layout: { pc: at, mobile: at }, ...(events ? { events } : {}) };
}

/** Dispatches one event on a page of these widgets; answers what the action host was asked to do. */
async function dispatch(widgets: WidgetInstance[], e: Parameters<ReturnType<typeof pageDispatcher>>[0]) {
  const doc: PageDocument = { id: 'p', title: 'p', version: 1, layout: { pc: {}, mobile: {} }, widgets };
  const store = createPageStore(doc);
  const log: unknown[][] = [];
  const record =
    (name: string) =>
    async (...a: unknown[]) =>
      void log.push([name, ...a]);
  const host = {
    scope: () => ({}),
    notify: (...a: unknown[]) => void log.push(['notify', ...a]),
    submitForm: record('submitForm'),
  } as unknown as ActionHost;
  pageDispatcher({ store, index: indexWidgets(widgets), host: () => host })(e);
  await new Promise((r) => setTimeout(r, 0));
  return { log, values: store.getState().values };
}

const say = (message: string) => [{ type: 'notify', message: { $expr: message } }];

describe('events by their declared payload', () => {
  it('a record event (table row click, card click) gives its actions the row as `record`', async () => {
    for (const [kind, event] of [
      ['table', 'onRowClick'],
      ['kanban', 'onCardClick'],
    ] as const) {
      const { log } = await dispatch([widget('w', kind, { [event]: say('record.name') })], {
        widget: 'w',
        event,
        payload: { _id: 'r1', name: 'Ann' },
      });
      expect(log, kind).toEqual([['notify', 'success', 'Ann', undefined]]);
    }
  });

  it('a widget inside a list copy gives its actions that copy’s row, whatever the event carries', async () => {
    const { log } = await dispatch([widget('t', 'text', { onClick: say('record.name') })], {
      widget: 't',
      event: 'onClick',
      record: { _id: 'r2', name: 'Bob' },
    });
    expect(log).toEqual([['notify', 'success', 'Bob', undefined]]);
  });

  it('a value event does not pass its value off as a record', async () => {
    const { log } = await dispatch([widget('i', 'textbox', { onChange: say('record == null') })], {
      widget: 'i',
      event: 'onChange',
      payload: { name: 'not a record' },
    });
    expect(log).toEqual([['notify', 'success', 'true', undefined]]);
  });
});

describe('form kinds', () => {
  it('the submit event of a form without actions saves it; with actions, they run and see its values', async () => {
    const bare = await dispatch([widget('f', 'form')], { widget: 'f', event: 'onSubmit', payload: { a: 1 } });
    expect(bare.log).toEqual([['submitForm', 'f', { a: 1 }]]);
    const wired = await dispatch([widget('f', 'form', { onSubmit: say('"sent"') })], {
      widget: 'f',
      event: 'onSubmit',
      payload: { a: 1 },
    });
    expect(wired.log).toEqual([['notify', 'success', 'sent', undefined]]);
    expect(wired.values.f).toEqual({ a: 1 });
  });

  it('an event of another kind named like a submit saves nothing', async () => {
    const { log } = await dispatch([widget('b', 'button')], { widget: 'b', event: 'onSubmit', payload: {} });
    expect(log).toEqual([]);
  });
});

describe('data roles', () => {
  const props = { entity: 'customer', pageSize: 5 };
  it('reads by the kind’s role: a page of rows, one record, rows to aggregate, nothing', () => {
    expect(widgetQuery('rows', props)?.body?.page).toEqual({ index: 1, size: 5 });
    expect(widgetQuery('rows', props, {}, { index: 3, size: 7 })?.body?.page).toEqual({ index: 3, size: 7 });
    expect(widgetQuery('record', props)).toEqual({ entity: 'customer', body: null, counts: false });
    expect(widgetQuery('record', props, { id: 'r1' })?.body).toMatchObject({
      page: { index: 1, size: 1 },
      query: { field: '_id', type: '_id', opt: 'eq', value: 'r1' },
    });
    expect(widgetQuery('aggregate', props, {}, { index: 3, size: 7 })?.body?.page).toEqual({
      index: 1,
      size: 1000,
    });
    expect(widgetQuery('none', props)).toBeNull();
    expect(widgetQuery('rows', { entity: ' ' })).toBeNull();
  });
});

describe('first paint without a count', () => {
  const props = { entity: 'customer', pageSize: 5, sortBy: { field: 'name', order: 'desc' } };
  it('no role asks for the count with its rows (the count follows, off the first paint)', () => {
    for (const role of ['rows', 'aggregate', 'record'] as const)
      expect(widgetQuery(role, props, { id: 'r1' })?.body).not.toHaveProperty('count');
    expect(widgetQuery('record', props, { id: 'r1' })?.counts).toBe(false);
    expect(widgetQuery('rows', props)?.counts).toBe(true);
  });

  it("a clicked column header sorts instead of the props' sortBy; off, sortBy again", () => {
    const view = { sort: { field: 'qty', order: 'asc' as const } };
    expect(widgetQuery('rows', props, {}, undefined, view)?.body?.sort).toEqual([
      { field: 'qty', order: 'asc' },
    ]);
    expect(widgetQuery('rows', props, {}, undefined, {})?.body?.sort).toEqual([
      { field: 'name', order: 'desc' },
    ]);
  });

  it('search looks in the visible text fields; the filter adds typed clauses; both must hold', () => {
    const fields = [
      { key: 'name', name: 'Name', type: 'string' },
      { key: 'secret', name: 'Secret', type: 'string', hide: true },
      { key: 'qty', name: 'Qty', type: 'number' },
      { key: 'pic', name: 'Picture', type: 'image' },
    ];
    expect(viewQuery({ search: '  pie ' }, fields)).toEqual({
      $or: [{ field: 'name', type: 'text', opt: 'contain', value: 'pie' }],
    });
    expect(
      viewQuery(
        {
          search: 'pie',
          filter: { conditions: [{ id: 1, field: 'qty', opt: 'gt', value: 2 }], match: 'and' },
        },
        fields,
      ),
    ).toEqual({
      $and: [
        { $or: [{ field: 'name', type: 'text', opt: 'contain', value: 'pie' }] },
        { $and: [{ field: 'qty', type: 'number', opt: 'gt', value: 2 }] },
      ],
    });
    expect(viewQuery({ search: '   ' }, fields)).toBeUndefined();
    // No text field to look in: a search matches nothing rather than everything.
    expect(viewQuery({ search: 'x' }, [fields[2]!])).toEqual({
      field: '_id',
      type: '_id',
      opt: 'set',
      value: [],
    });
  });
});

describe('live kinds', () => {
  it('a kind is live as its definition says for the props (the board, unless realtime is off)', () => {
    expect(isLiveWidget(widget('k', 'kanban', undefined, { realtime: true }))).toBe(true);
    expect(isLiveWidget(widget('k', 'kanban', undefined, { realtime: false }))).toBe(false);
    expect(isLiveWidget(widget('t', 'table', undefined, { realtime: true }))).toBe(false);
    expect(isLiveWidget(widget('x', 'no-such-kind'))).toBe(false);
  });
});
