/**
 * Page validation: ajv compiles the page schema together with every kind's props schema once per
 * registry (cached per process), then validates whole documents. Errors name the JSON path and the widget.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import bindingSchema from '../schemas/binding.schema.json' with { type: 'json' };
import eventsSchema from '../schemas/events.schema.json' with { type: 'json' };
import pageSchema from '../schemas/page.schema.json' with { type: 'json' };
import widgetSchema from '../schemas/widget.schema.json' with { type: 'json' };
import { checkExpr } from '../src/shared/expr/index.ts';
import { hasScriptTag, isSafeUrl, sanitizeHtml } from '../src/shared/sanitize.ts';
import type { WidgetSpec } from './define.ts';

export const SCHEMA_BASE = 'https://schemas.lowcode.local/';
const ids = {
  binding: `${SCHEMA_BASE}binding.schema.json`,
  events: `${SCHEMA_BASE}events.schema.json`,
  widget: `${SCHEMA_BASE}widget.schema.json`,
  page: `${SCHEMA_BASE}page.schema.json`,
  typedWidget: `${SCHEMA_BASE}typed-widget.json`,
  typedPage: `${SCHEMA_BASE}typed-page.json`,
  pageSettings: `${SCHEMA_BASE}page-settings.json`,
  props: (kind: string) => `${SCHEMA_BASE}widgets/${kind}.json`,
};

export interface PageIssue {
  /** JSON pointer into the document, e.g. /widgets/3/props/text. */
  path: string;
  message: string;
  keyword?: string;
  widgetId?: string;
  kind?: string;
}

export type ValidationResult = { ok: true } | { ok: false; errors: PageIssue[] };

export interface PageValidator {
  validatePage(doc: unknown): ValidationResult;
  /**
   * Checks a page's own settings (id, title, layout, state, data sources, events, setup) as
   * validatePage does, and only that `widgets` is an array: the page panel's check, which need not
   * compile every kind's props schema.
   */
  validatePageSettings(doc: unknown): ValidationResult;
  validateWidget(widget: unknown): ValidationResult;
  /** Checks one kind's props (bindings allowed); undefined for an unknown kind. */
  validateProps(kind: string, props: unknown): ValidationResult | undefined;
  validateEvents(events: unknown): ValidationResult;
  /**
   * The compile work not done yet, one step per check (a kind's props, the events, the page settings,
   * a widget, a whole page): run them when the thread is idle so no later check has to compile.
   */
  pendingCompiles(): (() => void)[];
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Adds `noScript` to every plain string subschema (not URLs or HTML, which have their own formats). */
function guardStrings(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(guardStrings);
  if (!isObj(s)) return s;
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'default' || k === 'examples' || k === 'const' || k === 'enum') out[k] = v;
    else if (k === 'properties' && isObj(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([p, ps]) => [p, guardStrings(ps)]));
    else out[k] = guardStrings(v);
  }
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string') && s.format !== 'safe-url' && s.format !== 'safe-html' && !('enum' in s))
    out.noScript = true;
  return out;
}

/** The kind's props schema as compiled: strings guarded, every top-level prop may also be a binding. */
export function compiledPropsSchema(spec: WidgetSpec): Json {
  const properties: Json = {};
  for (const [name, ps] of Object.entries(spec.schema.properties)) {
    const guarded = guardStrings(ps) as Json;
    properties[name] =
      ps['x-bindable'] === false ? guarded : { anyOf: [guarded, { $ref: ids.binding }], 'x-zh': ps['x-zh'] };
  }
  return { ...spec.schema, $id: ids.props(spec.kind), properties };
}

function typedWidgetSchema(specs: readonly WidgetSpec[]): Json {
  return {
    $id: ids.typedWidget,
    type: 'object',
    allOf: [{ $ref: `${ids.widget}#/definitions/shell` }],
    properties: { children: { type: 'array', maxItems: 1000, items: { $ref: '#' } } },
    // A widget marked broken on load is kept as it is (no `then`); everything else must match its kind.
    if: { type: 'object', properties: { broken: { const: true } }, required: ['broken'] },
    else: {
      type: 'object',
      required: ['kind'],
      discriminator: { propertyName: 'kind' },
      oneOf: specs.map((s) => ({
        type: 'object',
        properties: {
          kind: { const: s.kind },
          props: { $ref: ids.props(s.kind) },
          version: { const: s.version },
          ...(s.meta.container ? {} : { children: { type: 'array', maxItems: 0 } }),
        },
      })),
    },
  };
}

function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    // Errors carry the offending value (used for expression messages); no cost on the success path.
    verbose: true,
    discriminator: true,
    strict: true,
    // Discriminated branches require `type`, which the parent declares.
    strictRequired: false,
    allowUnionTypes: true,
  });
  ajv.addFormat('safe-url', { type: 'string', validate: isSafeUrl });
  // HTML is accepted only when it is already in sanitised form.
  ajv.addFormat('safe-html', { type: 'string', validate: (s: string) => sanitizeHtml(s) === s });
  ajv.addFormat(
    'color',
    /^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|rgba?\([\d\s.,%]+\)|transparent)?$/,
  );
  ajv.addKeyword({
    keyword: 'noScript',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (on: boolean, data: string) => !on || !hasScriptTag(data),
  });
  ajv.addKeyword({
    keyword: 'exprSyntax',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    // Parses are cached by the evaluator, so re-validating a page costs a map look-up per binding.
    validate: (on: boolean, data: string) => !on || checkExpr(data).ok,
  });
  for (const k of [
    'x-zh',
    'x-widget',
    'x-widget-role',
    'x-bindable',
    'x-enum-zh',
    'x-enum-en',
    'x-field-of',
    'x-default-en',
  ])
    ajv.addKeyword(k);
  return ajv;
}

function locateWidget(doc: unknown, pointer: string): { widgetId?: string; kind?: string } {
  let node: unknown = doc;
  let found: { widgetId?: string; kind?: string } = {};
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObj(node)) node = node[seg];
    else break;
    if (isObj(node) && typeof node.kind === 'string' && 'layout' in node)
      found = { widgetId: typeof node.id === 'string' ? node.id : undefined, kind: node.kind };
  }
  return found;
}

function valueAt(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObj(node)) node = node[seg];
    else return undefined;
  }
  return node;
}

const isBindingValue = (v: unknown) => isObj(v) && '$expr' in v;

/** Keeps the errors a builder can act on: a prop that may be a value or a binding reports only the branch it took. */
function relevant(doc: unknown, e: ErrorObject): boolean {
  if (e.keyword === 'anyOf' || e.keyword === 'if') return false;
  const inBinding = e.schemaPath.includes('binding.schema.json');
  const at = e.instancePath.endsWith('/$expr') ? e.instancePath.slice(0, -6) : e.instancePath;
  const isBinding = isBindingValue(valueAt(doc, at));
  return inBinding ? isBinding : !isBinding || e.instancePath !== at || !e.schemaPath.includes('/anyOf/0');
}

function toIssues(doc: unknown, errors: ErrorObject[] | null | undefined): PageIssue[] {
  const out: PageIssue[] = [];
  const seen = new Set<string>();
  // A plain value that failed its own branch (anyOf/0) also fails the binding branch; ajv may name the
  // latter's errors relative to the binding schema (no file name in the path), so drop, at such a
  // path, every error that is not from the value's own branch.
  const plainFailed = new Set(
    (errors ?? [])
      .filter((e) => e.schemaPath.includes('/anyOf/0') && !isBindingValue(valueAt(doc, e.instancePath)))
      .map((e) => e.instancePath),
  );
  for (const e of errors ?? []) {
    if (!relevant(doc, e)) continue;
    if (plainFailed.has(e.instancePath) && !e.schemaPath.includes('/anyOf/0')) continue;
    const path = e.instancePath || '/';
    const key = `${path}|${e.keyword}|${e.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    const message =
      e.keyword === 'noScript'
        ? 'must not contain script tags'
        : e.keyword === 'exprSyntax'
          ? `expression does not parse: ${checkExprMessage(e.data)}`
          : `${e.message ?? 'is invalid'}${extra}`;
    out.push({ path, message, keyword: e.keyword, ...locateWidget(doc, e.instancePath) });
  }
  return out;
}

function checkExprMessage(src: unknown): string {
  const r = checkExpr(String(src));
  return r.ok ? '' : r.error.message;
}

function run(fn: ValidateFunction, doc: unknown): ValidationResult {
  return fn(doc) ? { ok: true } : { ok: false, errors: toIssues(doc, fn.errors) };
}

/**
 * Builds a validator for a registry. Prefer `validatorFor`, which compiles once per registry. Each
 * check is compiled on its first use (a whole page needs every kind's props schema; the page settings,
 * a widget's events or one kind's props need only theirs).
 */
export function createPageValidator(specs: readonly WidgetSpec[]): PageValidator {
  const ajv = createAjv();
  ajv.addSchema([bindingSchema, eventsSchema, widgetSchema, pageSchema] as Json[]);
  for (const s of specs) ajv.addSchema(compiledPropsSchema(s));
  ajv.addSchema(typedWidgetSchema(specs));
  ajv.addSchema({
    $id: ids.typedPage,
    type: 'object',
    allOf: [{ $ref: `${ids.page}#/definitions/shell` }],
    properties: { widgets: { type: 'array', maxItems: 20000, items: { $ref: ids.typedWidget } } },
  });
  ajv.addSchema({
    $id: ids.pageSettings,
    type: 'object',
    allOf: [{ $ref: `${ids.page}#/definitions/shell` }],
    properties: { widgets: { type: 'array', maxItems: 20000 } },
  });
  const compiledFns = new Map<string, ValidateFunction>();
  const fn = (id: string) => {
    let f = compiledFns.get(id);
    if (!f) {
      f = ajv.getSchema(id)!;
      compiledFns.set(id, f);
    }
    return f;
  };
  const kinds = new Set(specs.map((s) => s.kind));
  const all = [
    ...specs.map((s) => ids.props(s.kind)),
    ids.events,
    ids.pageSettings,
    ids.typedWidget,
    ids.typedPage,
  ];
  return {
    pendingCompiles: () => all.filter((id) => !compiledFns.has(id)).map((id) => () => void fn(id)),
    validatePage: (doc) => run(fn(ids.typedPage), doc),
    validatePageSettings: (doc) => run(fn(ids.pageSettings), doc),
    validateWidget: (w) => run(fn(ids.typedWidget), w),
    validateProps: (kind, p) => (kinds.has(kind) ? run(fn(ids.props(kind)), p) : undefined),
    validateEvents: (e) => run(fn(ids.events), e),
  };
}

const compiled = new WeakMap<readonly WidgetSpec[], PageValidator>();
let compileCount = 0;

/** The validator of a registry, compiled on first use and cached for the life of the process. */
export function validatorFor(specs: readonly WidgetSpec[]): PageValidator {
  let v = compiled.get(specs);
  if (!v) {
    v = createPageValidator(specs);
    compiled.set(specs, v);
    compileCount++;
  }
  return v;
}

/** How many times a validator was compiled in this process (for tests and the benchmark). */
export function validatorCompileCount(): number {
  return compileCount;
}
