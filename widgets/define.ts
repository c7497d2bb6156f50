/** A widget kind as one config object (Puck/tldraw style): props schema with defaults, view, migrations. */
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
  panel?: ComponentType<{ props: P; onChange: (next: P) => void }>;
  migrations: Migration[];
  meta: WidgetMeta;
}

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
  panel?: ComponentType<{ props: P; onChange: (next: P) => void }>;
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

/** Declares a kind; checks at load time that its version and migrations agree. */
export function defineWidget<P extends Props>(input: WidgetInput<P>): WidgetDef<P> {
  const schema = input.schema as PropsSchema;
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(input.kind))
    throw new Error(`widget kind ${input.kind} is not kebab-case`);
  if (schema?.type !== 'object' || schema.additionalProperties !== false)
    throw new Error(`widget ${input.kind}: props schema must be a closed object`);
  const migrations = input.migrations ?? [];
  const version = input.version ?? 1;
  migrations.forEach((m, i) => {
    if (m.to !== i + 2)
      throw new Error(`widget ${input.kind}: migration ${m.name} must go to version ${i + 2}`);
  });
  if (version !== migrations.length + 1)
    throw new Error(`widget ${input.kind}: version ${version} needs ${version - 1} migrations`);
  const defaults = { ...schemaDefaults(schema), ...input.defaults } as P;
  let loaded: Promise<ComponentType<WidgetRenderProps<P>>> | undefined;
  let ready: ComponentType<WidgetRenderProps<P>> | undefined;
  const loader = () => {
    loaded ??= input.render().then((view) => {
      ready = view;
      return view;
    });
    return loaded;
  };
  return {
    kind: input.kind,
    version,
    category: input.category,
    schema,
    defaults,
    render: lazy(async () => ({ default: await loader() })),
    loadRender: loader,
    loadedRender: () => ready,
    ...(input.panel ? { panel: input.panel } : {}),
    migrations,
    meta: input.meta,
  };
}
