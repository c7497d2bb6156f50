/**
 * The defensive parse of a flow document: every step's type is known, its `_procedure` matches the
 * type's schema, its expressions parse, handles are identifiers, nesting and size are bounded. The
 * first fault is answered as PROGRAM_INVALID naming its path (`_process[2]._procedure.yes[0]`).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { checkExpr } from '../../shared/expr/index.ts';
import {
  type FlowDocument,
  type FlowStep,
  HANDLE,
  PROGRAM_LIMITS,
  type STEP_TYPES,
  stepType,
  TRIGGER_OPS,
} from '../../shared/program/index.ts';
import { E, fail } from '../errors.ts';

const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true });
// Compiled per step type on first use: most processes validate few flows, and start matters more.
const validators = new Map<string, ValidateFunction>();
function validatorOf(def: (typeof STEP_TYPES)[number]): ValidateFunction {
  let v = validators.get(def.type);
  if (!v) {
    v = ajv.compile(def.schema);
    validators.set(def.type, v);
  }
  return v;
}

function invalid(path: string, why: string): never {
  fail(E.PROGRAM_INVALID, `${path}: ${why}`);
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function checkExpression(path: string, src: unknown): void {
  if (typeof src !== 'string') invalid(path, 'expected an expression');
  const r = checkExpr(src as string);
  if (!r.ok) invalid(path, `expression does not parse: ${r.error.message}`);
}

/**
 * A code step's source must parse as the body of the function the code worker wraps it in (strict
 * mode, `api` in scope). The function is built, never called: V8 parses the whole body (nested
 * functions too), so a syntax error, or a source that tries to close the wrapper early, is refused on
 * save, naming the step, instead of failing at run time.
 */
function checkCode(path: string, handle: string, src: unknown): void {
  if (typeof src !== 'string') return;
  try {
    new Function('api', `"use strict";\n${src}`);
  } catch (err) {
    const why = err instanceof SyntaxError ? err.message : String(err);
    invalid(path, `the code of step ${handle} does not parse: ${why.slice(0, 300)}`);
  }
}

function checkTemplate(path: string, text: unknown): void {
  if (typeof text !== 'string') return;
  for (const m of text.matchAll(/\{\{([\s\S]*?)\}\}/g)) checkExpression(path, m[1]!.trim());
}

/** `{ "$expr": "…" }` anywhere inside a filter tree. */
function checkBindings(path: string, v: unknown, depth = 0): void {
  if (depth > 32) invalid(path, 'nested too deeply');
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) checkBindings(`${path}[${i}]`, x, depth + 1);
  } else if (isObj(v)) {
    if ('$expr' in v) checkExpression(`${path}.$expr`, v.$expr);
    else for (const [k, x] of Object.entries(v)) checkBindings(`${path}.${k}`, x, depth + 1);
  }
}

interface Walk {
  count: number;
  handles: Set<string>;
}

function checkSteps(list: unknown, path: string, depth: number, w: Walk): FlowStep[] {
  if (!Array.isArray(list)) invalid(path, 'expected a list of steps');
  if (depth > PROGRAM_LIMITS.maxNesting) invalid(path, `nested deeper than ${PROGRAM_LIMITS.maxNesting}`);
  return (list as unknown[]).map((raw, i) => {
    const p = `${path}[${i}]`;
    w.count += 1;
    if (w.count > PROGRAM_LIMITS.maxDefinedSteps)
      invalid(p, `more than ${PROGRAM_LIMITS.maxDefinedSteps} steps`);
    if (!isObj(raw)) invalid(p, 'expected a step object');
    for (const k of Object.keys(raw))
      if (!['_type', '_handle', '_entity', '_procedure', '_name'].includes(k))
        invalid(`${p}.${k}`, 'unknown key');
    const def = typeof raw._type === 'string' ? stepType(raw._type) : undefined;
    if (!def) invalid(`${p}._type`, `unknown step type ${JSON.stringify(raw._type)}`);
    if (typeof raw._handle !== 'string' || !HANDLE.test(raw._handle))
      invalid(`${p}._handle`, 'expected an identifier (letters, digits, _)');
    if (w.handles.has(raw._handle as string)) invalid(`${p}._handle`, `handle ${raw._handle} used twice`);
    w.handles.add(raw._handle as string);
    if (raw._name !== undefined && (typeof raw._name !== 'string' || raw._name.length > 128))
      invalid(`${p}._name`, 'expected a label of at most 128 characters');
    if (def.topLevel && depth > 0) invalid(p, `a ${def.type} step may only be at the top level`);
    if (def.entity) {
      if (typeof raw._entity !== 'string' || raw._entity.length < 1 || raw._entity.length > 64)
        invalid(`${p}._entity`, 'a data table is required');
    } else if (raw._entity !== undefined) invalid(`${p}._entity`, `a ${def.type} step takes no table`);
    const proc = structuredClone(raw._procedure ?? {});
    const validate = validatorOf(def);
    if (!validate(proc)) {
      const e = validate.errors?.[0];
      invalid(`${p}._procedure${e?.instancePath.replaceAll('/', '.') ?? ''}`, e?.message ?? 'invalid');
    }
    const props = (def.schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const procObj = proc as Record<string, unknown>;
    for (const [key, s] of Object.entries(props)) {
      const v = procObj[key];
      const at = `${p}._procedure.${key}`;
      if (v === undefined) continue;
      if (s['x-expr'] && v !== '') checkExpression(at, v);
      if (s['x-template']) checkTemplate(at, v);
      if (s['x-code']) checkCode(at, raw._handle as string, v);
      if (s['x-mapping']) for (const [f, x] of Object.entries(v as object)) checkExpression(`${at}.${f}`, x);
      if (s['x-filter']) checkBindings(at, v);
    }
    for (const slot of def.slots)
      procObj[slot] = checkSteps(procObj[slot] ?? [], `${p}._procedure.${slot}`, depth + 1, w);
    const step: FlowStep = { _type: def.type, _handle: raw._handle as string, _procedure: procObj };
    if (def.entity) step._entity = raw._entity as string;
    if (typeof raw._name === 'string') step._name = raw._name;
    return step;
  });
}

/** A clean flow document from untrusted input, or PROGRAM_INVALID naming the first fault. */
export function parseFlowDocument(input: unknown): FlowDocument {
  if (!isObj(input)) invalid('', 'expected a flow document');
  if (JSON.stringify(input).length > PROGRAM_LIMITS.maxDocumentBytes)
    invalid('', `larger than ${PROGRAM_LIMITS.maxDocumentBytes} bytes`);
  const option = input._option ?? {};
  if (!isObj(option)) invalid('_option', 'expected an object');
  if (option._entity !== undefined && typeof option._entity !== 'string')
    invalid('_option._entity', 'expected a table');
  if (option.trigger !== undefined) {
    const t = option.trigger;
    const ops: readonly string[] = TRIGGER_OPS;
    if (
      !isObj(t) ||
      Object.keys(t).some((k) => k !== 'on') ||
      !Array.isArray(t.on) ||
      t.on.length === 0 ||
      !t.on.every((x) => ops.includes(x as string))
    )
      invalid('_option.trigger', 'expected { "on": ["create" | "update" | "remove", …] }');
    if (!option._entity) invalid('_option.trigger', 'a trigger needs the table it watches (_option._entity)');
    option.trigger = { on: ops.filter((o) => (t.on as string[]).includes(o)) };
  }
  const w: Walk = { count: 0, handles: new Set() };
  const process = checkSteps(input._process ?? [], '_process', 0, w);
  if (option.trigger && process.some((s) => s._type === 'input'))
    invalid('_option.trigger', 'a program that records trigger cannot ask for input');
  return { _process: process, _option: option };
}

/** Every step of a document, nested ones included, in document order. */
export function allSteps(list: FlowStep[]): FlowStep[] {
  const out: FlowStep[] = [];
  for (const s of list) {
    out.push(s);
    for (const slot of stepType(s._type)?.slots ?? [])
      out.push(...allSteps((s._procedure[slot] ?? []) as FlowStep[]));
  }
  return out;
}
