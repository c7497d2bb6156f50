/**
 * Page templates of the pages list: documents built from the widget registry (each kind's defaults,
 * sizes from its meta), bound to a table the builder chooses. Every template passes `validatePage`.
 */
import { getWidget } from '../../../../widgets/index.ts';
import {
  DEFAULT_PAGE_LAYOUT,
  type GridPos,
  PAGE_FORMAT_VERSION,
  type PageDocument,
  sizeToGrid,
  type WidgetInstance,
} from '../../../shared/page-document.ts';

export type TemplateKind = 'blank' | 'list' | 'form' | 'dashboard';
export const TEMPLATE_KINDS: readonly TemplateKind[] = ['blank', 'list', 'form', 'dashboard'];

/** Templates other than blank show a table's data: the create dialog asks for it. */
export function needsTable(kind: TemplateKind): boolean {
  return kind !== 'blank';
}

/** What a template needs of the chosen table. */
export interface TemplateTable {
  id: string;
  name: string;
  fields: { key: string; name: string; type: string; hide?: boolean }[];
}

const PC = DEFAULT_PAGE_LAYOUT.pc;
const MOBILE = DEFAULT_PAGE_LAYOUT.mobile;
/** Page titles are at most 200 characters (page schema). */
const title = (name: string) => name.trim().slice(0, 200) || 'Page';

/**
 * Lays widgets out top to bottom in both modes: each row of the plan is a list of widgets that share
 * the row on pc (side by side, equal widths) and stack on mobile.
 */
class Builder {
  private widgets: WidgetInstance[] = [];
  private pcY = 0;
  private mobileY = 0;
  private n = 0;

  /** A widget of `kind` with its defaults, `props` laid over them. */
  make(kind: string, props: Record<string, unknown> = {}, name?: string): WidgetInstance {
    const def = getWidget(kind);
    if (!def) throw new Error(`unknown widget kind ${kind}`);
    this.n += 1;
    const zero: GridPos = { x: 0, y: 0, w: 1, h: 1 };
    return {
      id: `${kind.replace(/-/g, '_')}${this.n}`,
      kind,
      version: def.version,
      ...(name ? { name } : {}),
      props: { ...structuredClone(def.defaults), ...props },
      layout: { pc: { ...zero }, mobile: { ...zero } },
      ...(def.meta.container ? { children: [] } : {}),
    };
  }

  /** Places one row: on pc the widgets share the width; on mobile each takes the full width. */
  row(items: WidgetInstance[], pcHeight?: number): this {
    const w = Math.floor(PC.cols / items.length);
    let rowH = 0;
    items.forEach((inst, i) => {
      const size = getWidget(inst.kind)!.meta.size;
      const h = pcHeight ?? sizeToGrid(size, PC).h;
      inst.layout.pc = { x: i * w, y: this.pcY, w, h };
      const mh = sizeToGrid(size, MOBILE).h;
      inst.layout.mobile = { x: 0, y: this.mobileY, w: MOBILE.cols, h: mh };
      this.mobileY += mh;
      rowH = Math.max(rowH, h);
      this.widgets.push(inst);
    });
    this.pcY += rowH;
    return this;
  }

  page(name: string, extra: Partial<PageDocument> = {}): PageDocument {
    return {
      id: 'draft',
      title: title(name),
      version: PAGE_FORMAT_VERSION,
      layout: structuredClone(DEFAULT_PAGE_LAYOUT) as PageDocument['layout'],
      widgets: this.widgets,
      ...extra,
    };
  }
}

/** Visible fields of a type (all visible fields when no type is given). */
function shown(table: TemplateTable, types?: string[]) {
  return table.fields.filter((f) => !f.hide && (!types || types.includes(f.type)));
}

/** Heading text of a template page: the page name, then the table's name. */
function heading(b: Builder, text: string) {
  return b.make('text', { text, fontSize: 20, bold: true });
}

/**
 * The document of a new page from a template. `table` is required for every kind but blank; the
 * server gives the document its page id when it stores it.
 */
export function buildTemplate(
  kind: TemplateKind,
  name: string,
  table?: TemplateTable,
  texts: { submit: string } = { submit: 'Submit' },
): PageDocument {
  const b = new Builder();
  if (kind === 'blank') return b.page(name);
  if (!table) throw new Error(`template ${kind} needs a table`);
  switch (kind) {
    case 'list': {
      b.row([heading(b, name)]);
      b.row([b.make('table', { entity: table.id, search: true, filter: true, sort: true, index: true })]);
      return b.page(name);
    }
    case 'form': {
      const form = b.make('form', {
        entity: table.id,
        fields: shown(table)
          .filter((f) => f.type !== 'collection')
          .slice(0, 500)
          .map((f) => ({ field: f.key.slice(0, 64), label: f.name.slice(0, 200) })),
        submitText: texts.submit.slice(0, 500),
      });
      const submit = b.make('button', { text: texts.submit.slice(0, 500) });
      submit.events = { onClick: [{ type: 'submitForm', form: form.id }] };
      b.row([heading(b, name)]);
      b.row([form]);
      b.row([submit]);
      return b.page(name);
    }
    case 'dashboard': {
      // One summary source: the table's row count (page of one row, total from its meta).
      const source = 'rows';
      const count = b.make('number', { value: { $expr: `widgets.${source}.total` }, decimals: 0 });
      const label = b.make('text', { text: table.name.slice(0, 10000) });
      const dims = shown(table, ['string', 'date']);
      const measures = shown(table, ['number']);
      const dimension = dims[0]?.key ?? '';
      const measure = measures[0]?.key ?? '';
      const aggregate = measure ? 'sum' : 'count';
      const column = b.make('graph', { entity: table.id, type: 'column', dimension, measure, aggregate });
      const pie = b.make('graph', { entity: table.id, type: 'pie', dimension, measure, aggregate });
      const line = b.make('graph', { entity: table.id, type: 'line', dimension, measure, aggregate });
      b.row([heading(b, name)]);
      b.row([label, count]);
      b.row([column, pie], 30);
      b.row([line], 30);
      return b.page(name, {
        dataSources: [{ id: source, type: 'entity', entity: table.id, page: { index: 1, size: 1 } }],
      });
    }
  }
}
