/**
 * A widget kind as one config object (Puck/tldraw style), the only home of everything about the kind:
 * props schema with defaults, view, migrations, the events it fires, the data it reads, whether it is
 * live, its custom property panel and, for forms, how it submits. Nothing outside `widgets/<kind>/`
 * (and the one registry line) names a kind.
 */
import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode } from 'react';

export const CATEGORIES = [
  'base',
  'baima',
  'chart',
  'input',
  'container',
  'print',
  'other',
  'simple',
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface I18nText {
  zh: string;
  en: string;
}

/** JSON Schema (draft-07) of a kind's props, with our annotations (x-zh, x-widget, noScript). */
export type PropsSchema = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
  [k: string]: unknown;
};

export type Props = Record<string, unknown>;

/** One ordered up-step: turns props of version `to - 1` into props of version `to`. */
export interface Migration {
  to: number;
  name: string;
  up: (props: Props) => Props;
}

export interface WidgetRenderProps<P extends Props = Props> {
  id: string;
  /** Props with bindings already resolved by the page renderer. */
  props: P;
  /** Rendered children, for containers. */
  children?: ReactNode;
}

export interface WidgetMeta {
  title: I18nText;
  /** An @ant-design/icons component name, resolved lazily by the palette. */
  icon: string;
  /** Default size in px when dropped on the canvas. */
  size: { width: number; height: number };
  /** Accepts children (containers). */
  container?: boolean;
}

/**
 * What an event carries to its actions: nothing; the widget's new value; a record of the bound table
 * (its actions read it as `record`, e.g. to open it in a modal); a form's field values (what
 * `submitForm` saves); or another object described in the event's `doc`.
 */
export type EventPayload = 'none' | 'value' | 'record' | 'values' | 'object';

/** An event a kind fires through `useDispatch` (or `useWidgetValue`, which fires `onChange`). */
export interface EventDef {
  /** `on` + PascalCase, e.g. `onClick`. */
  name: string;
  payload: EventPayload;
  title: I18nText;
  /** What an `object` payload holds, for builders. */
  doc?: I18nText;
}

/**
 * The data a kind reads through the data API from the table named by its `entity` prop: none; a page
 * of rows (`pageSize`; the render pages, sorts, searches and filters through the runtime's `setPage` and
 * `setView`, on the server); the one record named by the page parameter `id`
 * (forms: empty without it); or rows enough to aggregate in the browser (charts: up to 1,000).
 */
export type DataRole = 'none' | 'rows' | 'record' | 'aggregate';

/** A form kind: `submitForm` actions target it, and submitting saves its values to its table. */
export interface FormBehaviour<P extends Props = Props> {
  /** The event that carries the values (payload `values`); with no actions of its own it saves them. */
  submitEvent: string;
  /** Unsent input is kept as a draft while the page is open in the runtime, offered back on reopen. */
  drafts: boolean;
  /**
   * What a submit checks and saves: the table, the fields that must be filled (key and label) and
   * the name of the success notice ("<name>成功").
   */
  target(props: P): { entity: string; required: { key: string; label: string }[]; name: string };
}

/**
 * What a custom property panel gets (`widgets/<kind>/panel.tsx`): the values, a renderer of any
 * generated field, a multi-prop setter, errors and the designer's language. It imports nothing of the
 * designer: fields, labels and checks come in through these props.
 */
export interface PanelProps {
  def: WidgetDef;
  values: Props;
  /** The generated field of a prop (label, fx toggle, control, errors). */
  field: (key: string) => ReactNode;
  /** Edits several props at once (checked together; nothing goes out unless all pass). */
  setProps: (patch: Props) => void;
  /** Errors by dotted path. */
  errors: Record<string, string>;
  lang: 'zh' | 'en';
  /** A prop's label in `lang`. */
  label: (key: string) => string;
}

/** A view loaded on first use: the lazy component, its preloader, and the view once loaded. */
export interface LazyView<C> {
  /** Loaded on first render (wrap in Suspense); `load` preloads it. */
  lazy: LazyExoticComponent<ComponentType<C>>;
  load: () => Promise<ComponentType<C>>;
  /** The view once `load` has resolved, else undefined. */
  loaded: () => ComponentType<C> | undefined;
}

export interface WidgetDef<P extends Props = Props> {
  kind: string;
  version: number;
  category: Category;
  schema: PropsSchema;
  defaults: P;
  /** The view, loaded on first render (wrap in Suspense); `loadRender` preloads it. */
  render: LazyExoticComponent<ComponentType<WidgetRenderProps<P>>>;
  loadRender: () => Promise<ComponentType<WidgetRenderProps<P>>>;
  /**
   * The view once `loadRender` has resolved, else undefined: a renderer that preloaded the kinds
   * draws it directly (the lazy `render` would still suspend once and paint a fallback first).
   */
  loadedRender: () => ComponentType<WidgetRenderProps<P>> | undefined;
  /** Events the render fires, in the order the events editor lists them. */
  events: readonly EventDef[];
  data: DataRole;
  /**
   * A table kind drawn as the end user's data view when bound to a table (not a dataset) in the
   * runtime (`WidgetRuntime.dataView`): the view loads its own rows, so the runtime loads none for it.
   */
  dataView?: boolean;
  /** A live kind joins the page to the socket channel so saves through it show to everyone at once. */
  live?: (props: P) => boolean;
  /** The custom property panel (designer only: loaded lazily, never by the runtime). */
  panel?: LazyView<PanelProps>;
  form?: FormBehaviour<P>;
  /** Actions an event runs when the page gives it none of its own (a program button runs its program). */
  defaultActions?: DefaultActions;
  migrations: Migration[];
  meta: WidgetMeta;
}

/** Event name → the action list (events-schema objects) built from the event's payload. */
export type DefaultActions = Record<string, (payload: unknown) => Record<string, unknown>[]>;

/** The data half of a kind: all the validator and restore need, nothing of React. */
export type WidgetSpec = Pick<WidgetDef, 'kind' | 'version' | 'schema' | 'defaults' | 'migrations' | 'meta'>;

export interface WidgetInput<P extends Props> {
  kind: string;
  version?: number;
  category: Category;
  schema: unknown;
  defaults?: Partial<P>;
  /** Loader of the view, e.g. `() => import('./render.tsx').then((m) => m.TextWidget)`. */
  render: () => Promise<ComponentType<WidgetRenderProps<P>>>;
  /** Loader of a custom property panel: `() => import('./panel.tsx').then((m) => m.TablePanel)`. */
  panel?: () => Promise<ComponentType<PanelProps>>;
  events?: readonly EventDef[];
  /** Default `none`. */
  data?: DataRole;
  /**
   * A table kind drawn as the end user's data view when bound to a table (not a dataset) in the
   * runtime (`WidgetRuntime.dataView`): the view loads its own rows, so the runtime loads none for it.
   */
  dataView?: boolean;
  live?: (props: P) => boolean;
  form?: FormBehaviour<P>;
  defaultActions?: DefaultActions;
  migrations?: Migration[];
  meta: WidgetMeta;
}

/** Defaults declared in the schema (`default` of each property), overlaid with explicit ones. */
export function schemaDefaults(schema: PropsSchema): Props {
  const out: Props = {};
  for (const [k, s] of Object.entries(schema.properties))
    if ('default' in s) out[k] = structuredClone(s.default);
  return out;
}

/** A view loaded once, on first use. */
function lazyView<C>(loader: () => Promise<ComponentType<C>>): LazyView<C> {
  let loading: Promise<ComponentType<C>> | undefined;
  let ready: ComponentType<C> | undefined;
  const load = () => {
    loading ??= loader().then((view) => {
      ready = view;
      return view;
    });
    return loading;
  };
  return { lazy: lazy(async () => ({ default: await load() })), load, loaded: () => ready };
}

const EVENT_NAME = /^on[A-Z][A-Za-z]*$/;

/**
 * Declares a kind; checks at load time that its version and migrations agree, its events are named
 * once each, and a form's submit event is one of them and carries values.
 */
export function defineWidget<P extends Props>(input: WidgetInput<P>): WidgetDef<P> {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(input.kind))
    throw new Error(`widget kind ${input.kind} is not kebab-case`);
  const later = laterKind(input.schema);
  if (later !== undefined && later !== input.kind)
    throw new Error(`widget ${input.kind}: its schema is kept for kind ${later}`);
  if (later === undefined) checkClosed(input.kind, input.schema);
  const migrations = input.migrations ?? [];
  const version = input.version ?? 1;
  migrations.forEach((m, i) => {
    if (m.to !== i + 2)
      throw new Error(`widget ${input.kind}: migration ${m.name} must go to version ${i + 2}`);
  });
  if (version !== migrations.length + 1)
    throw new Error(`widget ${input.kind}: version ${version} needs ${version - 1} migrations`);
  const events = input.events ?? [];
  const names = new Set<string>();
  for (const e of events) {
    if (!EVENT_NAME.test(e.name)) throw new Error(`widget ${input.kind}: event ${e.name} is not onSomething`);
    if (names.has(e.name)) throw new Error(`widget ${input.kind}: event ${e.name} declared twice`);
    names.add(e.name);
  }
  if (input.form && events.find((e) => e.name === input.form?.submitEvent)?.payload !== 'values')
    throw new Error(
      `widget ${input.kind}: submit event ${input.form.submitEvent} must be declared with values`,
    );
  const view = lazyView(input.render);
  const def = {
    kind: input.kind,
    version,
    category: input.category,
    render: view.lazy,
    loadRender: view.load,
    loadedRender: view.loaded,
    events,
    data: input.data ?? 'none',
    ...(input.dataView ? { dataView: true } : {}),
    ...(input.live ? { live: input.live } : {}),
    ...(input.panel ? { panel: lazyView(input.panel) } : {}),
    ...(input.form ? { form: input.form } : {}),
    ...(input.defaultActions ? { defaultActions: input.defaultActions } : {}),
    migrations,
    meta: input.meta,
  };
  if (later === undefined) {
    const schema = input.schema as PropsSchema;
    return { ...def, schema, defaults: { ...schemaDefaults(schema), ...input.defaults } as P };
  }
  // The schema arrives with widgets/index.ts (client build): read it, and make the defaults, on use.
  let defaults: P | undefined;
  return Object.defineProperties(def, {
    schema: { enumerable: true, get: () => attachedSchema(input.kind) },
    defaults: {
      enumerable: true,
      get: () => {
        defaults ??= { ...schemaDefaults(attachedSchema(input.kind)), ...input.defaults } as P;
        return defaults;
      },
    },
  }) as WidgetDef<P>;
}

function checkClosed(kind: string, schema: unknown): asserts schema is PropsSchema {
  const s = schema as PropsSchema | undefined;
  if (s?.type !== 'object' || s.additionalProperties !== false)
    throw new Error(`widget ${kind}: props schema must be a closed object`);
}

/**
 * Props schemas kept out of the kinds' modules. The end-user runtime imports the registry for each
 * kind's behaviour (view loader, data role, events, form) but never reads a props schema or the
 * defaults: those serve the designer, the page templates and the server's validator. So the client
 * build (scripts/vite-widget-schemas.ts) turns a kind's `import schema from './schema.json'` into
 * `laterSchema(kind)`, and gives widgets/index.ts — the full registry, which only the builder's
 * screens import — the schemas to attach. The server and the tests import the JSON as written.
 */
const LATER = Symbol('later schema');
export interface LaterSchema {
  readonly [LATER]: string;
}
const attached = new Map<string, PropsSchema>();

/** Stands for the kind's props schema until `attachSchemas` gives it. */
export function laterSchema(kind: string): LaterSchema {
  return { [LATER]: kind };
}

function laterKind(schema: unknown): string | undefined {
  return typeof schema === 'object' && schema !== null && LATER in schema
    ? (schema as LaterSchema)[LATER]
    : undefined;
}

/** Gives the kinds declared with `laterSchema` their props schemas (kind → schema). */
export function attachSchemas(schemas: Record<string, unknown>): void {
  for (const [kind, schema] of Object.entries(schemas)) {
    checkClosed(kind, schema);
    attached.set(kind, schema);
  }
}

function attachedSchema(kind: string): PropsSchema {
  const schema = attached.get(kind);
  if (!schema)
    throw new Error(
      `widget ${kind}: props schema not attached yet (the client build attaches the schemas when widgets/index.ts loads: import it, not only ./registry.ts, where schemas or defaults are read)`,
    );
  return schema;
}
