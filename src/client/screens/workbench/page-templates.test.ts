import { describe, expect, it } from 'vitest';
import { validatePage } from '../../../../widgets/index.ts';
import { buildTemplate, needsTable, TEMPLATE_KINDS, type TemplateTable } from './page-templates.ts';

const table: TemplateTable = {
  id: '65f000000000000000000001',
  name: 'Orders',
  fields: [
    { key: 'title', name: 'Title', type: 'string' },
    { key: 'amount', name: 'Amount', type: 'number' },
    { key: 'day', name: 'Day', type: 'date' },
    { key: 'secret', name: 'Secret', type: 'string', hide: true },
    { key: 'tags', name: 'Tags', type: 'collection' },
  ],
};

const kinds = (doc: ReturnType<typeof buildTemplate>) => doc.widgets.map((w) => w.kind);

describe('page templates', () => {
  it.each(TEMPLATE_KINDS)('%s builds a document that validates', (kind) => {
    const doc = buildTemplate(kind, 'My page', needsTable(kind) ? table : undefined);
    const r = validatePage(doc);
    expect(r.ok ? [] : r.errors).toEqual([]);
    expect(doc.title).toBe('My page');
    // Widget ids are unique and no two pc boxes overlap.
    const ids = doc.widgets.map((w) => w.id);
    expect(new Set(ids).size).toBe(ids.length);
    const boxes = doc.widgets.map((w) => w.layout.pc);
    for (const [i, a] of boxes.entries())
      for (const c of boxes.slice(i + 1))
        expect(a.x < c.x + c.w && c.x < a.x + a.w && a.y < c.y + c.h && c.y < a.y + a.h).toBe(false);
  });

  it('blank has no widgets; the others need a table', () => {
    expect(buildTemplate('blank', 'B').widgets).toEqual([]);
    expect(needsTable('blank')).toBe(false);
    for (const k of ['list', 'form', 'dashboard'] as const) {
      expect(needsTable(k)).toBe(true);
      expect(() => buildTemplate(k, 'X')).toThrow(/needs a table/);
    }
  });

  it('list binds a table widget to the chosen table under a title', () => {
    const doc = buildTemplate('list', 'Order list', table);
    expect(kinds(doc)).toEqual(['text', 'table']);
    expect(doc.widgets[0]!.props.text).toBe('Order list');
    expect(doc.widgets[1]!.props.entity).toBe(table.id);
  });

  it('form lists the visible, non-collection fields and its button submits the form', () => {
    const doc = buildTemplate('form', 'New order', table, { submit: '提交订单' });
    expect(kinds(doc)).toEqual(['text', 'form', 'button']);
    const form = doc.widgets[1]!;
    expect(form.props.entity).toBe(table.id);
    expect((form.props.fields as { field: string }[]).map((f) => f.field)).toEqual([
      'title',
      'amount',
      'day',
    ]);
    const button = doc.widgets[2]!;
    expect(button.props.text).toBe('提交订单');
    expect(button.events?.onClick).toEqual([{ type: 'submitForm', form: form.id }]);
  });

  it('dashboard counts rows and charts the first text field by the first number field', () => {
    const doc = buildTemplate('dashboard', 'Board', table);
    expect(kinds(doc)).toEqual(['text', 'text', 'number', 'graph', 'graph', 'graph']);
    expect(doc.dataSources).toEqual([
      { id: 'rows', type: 'entity', entity: table.id, page: { index: 1, size: 1 } },
    ]);
    const graphs = doc.widgets.filter((w) => w.kind === 'graph');
    expect(graphs.map((g) => g.props.type)).toEqual(['column', 'pie', 'line']);
    for (const g of graphs)
      expect(g.props).toMatchObject({
        entity: table.id,
        dimension: 'title',
        measure: 'amount',
        aggregate: 'sum',
      });
    // Without a number field the charts count rows.
    const plain = buildTemplate('dashboard', 'Board', { ...table, fields: [table.fields[0]!] });
    expect(plain.widgets.find((w) => w.kind === 'graph')!.props).toMatchObject({
      measure: '',
      aggregate: 'count',
    });
  });

  it('a template refuses nothing the validator would: a long name is cut to a valid title', () => {
    const doc = buildTemplate('list', 'x'.repeat(300), table);
    expect(doc.title).toHaveLength(200);
    expect(validatePage(doc).ok).toBe(true);
  });
});
