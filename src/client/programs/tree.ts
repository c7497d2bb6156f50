/**
 * The step tree of a program as the editor edits it: steps addressed by paths (`[2, 'yes', 0]` is the
 * first step of the "then" branch of the third top-level step), and the pure edits on it (insert,
 * remove, move, duplicate with fresh handles), plus the variables an expression of a step can read.
 * Every edit answers a new process; nothing here mutates its input.
 */
import { type FlowStep, type InputField, STEP_TYPES, stepType } from '../../shared/program/index.ts';

/** Index, then (slot, index) pairs for each level of nesting. */
export type StepPath = (number | string)[];
/** Where a list of steps is: [] for the top level, [2, 'yes'] for a slot of step 2. */
export type ListPath = (number | string)[];

export const pathKey = (p: StepPath | ListPath): string => p.join('/');

export function parseKey(key: string): StepPath {
  return key === '' ? [] : key.split('/').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

const slotsOf = (s: FlowStep): string[] => stepType(s._type)?.slots ?? [];

/** The list a list path names (undefined when it names nothing). */
export function listAt(process: FlowStep[], at: ListPath): FlowStep[] | undefined {
  let list: FlowStep[] = process;
  for (let i = 0; i < at.length; i += 2) {
    const step = list[at[i] as number];
    const slot = at[i + 1] as string;
    if (!step || !slotsOf(step).includes(slot)) return undefined;
    list = (step._procedure[slot] ?? []) as FlowStep[];
  }
  return list;
}

export function stepAt(process: FlowStep[], path: StepPath): FlowStep | undefined {
  if (path.length === 0) return undefined;
  return listAt(process, path.slice(0, -1))?.[path.at(-1) as number];
}

/** The process with the list at `at` replaced by what `edit` makes of it. */
function editList(process: FlowStep[], at: ListPath, edit: (l: FlowStep[]) => FlowStep[]): FlowStep[] {
  if (at.length === 0) return edit(process);
  const [i, slot, ...rest] = at as [number, string, ...ListPath];
  return process.map((s, j) =>
    j === i
      ? {
          ...s,
          _procedure: {
            ...s._procedure,
            [slot]: editList((s._procedure[slot] ?? []) as FlowStep[], rest, edit),
          },
        }
      : s,
  );
}

export function replaceStep(process: FlowStep[], path: StepPath, step: FlowStep): FlowStep[] {
  const i = path.at(-1) as number;
  return editList(process, path.slice(0, -1), (l) => l.map((s, j) => (j === i ? step : s)));
}

export function insertStep(process: FlowStep[], at: ListPath, index: number, step: FlowStep): FlowStep[] {
  return editList(process, at, (l) => [...l.slice(0, index), step, ...l.slice(index)]);
}

export function removeStep(process: FlowStep[], path: StepPath): FlowStep[] {
  const i = path.at(-1) as number;
  return editList(process, path.slice(0, -1), (l) => l.filter((_, j) => j !== i));
}

/** True when `inner` is `outer` or a path below it. */
export function within(inner: StepPath | ListPath, outer: StepPath): boolean {
  return outer.length <= inner.length && outer.every((x, i) => inner[i] === x);
}

/**
 * Moves the step at `from` into list `to` at `index` (the index counted before the step leaves).
 * A step cannot move into itself; an input step stays at the top level. Answers null when refused.
 */
export function moveStep(
  process: FlowStep[],
  from: StepPath,
  to: ListPath,
  index: number,
): FlowStep[] | null {
  const step = stepAt(process, from);
  if (!step || within(to, from)) return null;
  if (stepType(step._type)?.topLevel && to.length > 0) return null;
  const fromList = from.slice(0, -1);
  const fromIndex = from.at(-1) as number;
  let target = to;
  let at = index;
  if (pathKey(fromList) === pathKey(to)) {
    if (at > fromIndex) at -= 1;
  } else if (
    within(to, fromList) &&
    to.length > fromList.length &&
    (to[fromList.length] as number) > fromIndex
  ) {
    // The target list is nested in a later sibling: its index shifts down once the step leaves.
    target = [...to];
    target[fromList.length] = (target[fromList.length] as number) - 1;
  }
  const without = removeStep(process, from);
  if (!listAt(without, target)) return null;
  return insertStep(without, target, at, step);
}

/** Every handle in the process, nested ones included. */
export function allHandles(process: FlowStep[]): Set<string> {
  const out = new Set<string>();
  const walk = (list: FlowStep[]) => {
    for (const s of list) {
      out.add(s._handle);
      for (const slot of slotsOf(s)) walk((s._procedure[slot] ?? []) as FlowStep[]);
    }
  };
  walk(process);
  return out;
}

/** `base1`, `base2`, … : the first not in `used` (which it joins). */
export function freshHandle(base: string, used: Set<string>): string {
  const stem = base.replace(/\d+$/, '') || 'step';
  let n = 1;
  while (used.has(`${stem}${n}`)) n++;
  const h = `${stem}${n}`;
  used.add(h);
  return h;
}

/** A copy of a step (and its nested steps) with handles not used in the process. */
export function duplicateStep(process: FlowStep[], path: StepPath): FlowStep[] {
  const step = stepAt(process, path);
  if (!step) return process;
  const used = allHandles(process);
  const copy = (s: FlowStep): FlowStep => {
    const proc = structuredClone(s._procedure);
    for (const slot of slotsOf(s)) proc[slot] = ((proc[slot] ?? []) as FlowStep[]).map(copy);
    return { ...structuredClone(s), _handle: freshHandle(s._handle, used), _procedure: proc };
  };
  return insertStep(process, path.slice(0, -1), (path.at(-1) as number) + 1, copy(step));
}

/** A new step of a type: its schema's defaults and empty required values; a table when it needs one. */
export function newStep(type: string, used: Set<string>, entity?: string): FlowStep {
  const def = stepType(type);
  if (!def) throw new Error(`unknown step type ${type}`);
  const props = (def.schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = (def.schema.required ?? []) as string[];
  const proc: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(props)) {
    if ('default' in s) proc[k] = structuredClone(s.default);
    else if (required.includes(k)) proc[k] = s.type === 'object' ? {} : s.type === 'array' ? [] : '';
  }
  const step: FlowStep = { _type: type, _handle: freshHandle(type, used), _procedure: proc };
  if (def.entity) step._entity = entity ?? '';
  return step;
}

/** Steps shown in the order the tree draws them, each with its path and depth. */
export function flatten(process: FlowStep[]): { path: StepPath; step: FlowStep; depth: number }[] {
  const out: { path: StepPath; step: FlowStep; depth: number }[] = [];
  const walk = (list: FlowStep[], at: ListPath, depth: number) => {
    list.forEach((s, i) => {
      const p = [...at, i];
      out.push({ path: p, step: s, depth });
      for (const slot of slotsOf(s)) walk((s._procedure[slot] ?? []) as FlowStep[], [...p, slot], depth + 1);
    });
  };
  walk(process, [], 0);
  return out;
}

export interface ScopeVar {
  /** What an expression writes: `params.qty`, `state.find1`. */
  path: string;
  kind: 'input' | 'record' | 'user' | 'step' | 'variable' | 'loop';
  detail?: string;
}

/**
 * What an expression of the step at `path` can read: the input fields (`params.*`), the record the
 * program runs on (`record.*`, its table's fields), the caller (`user.*`), and the outputs of the
 * steps that ran before it (`state.<handle>`, set variables, the items of enclosing loops).
 */
export function scopeAt(process: FlowStep[], path: StepPath, recordFields: string[] = []): ScopeVar[] {
  const vars: ScopeVar[] = [];
  for (const s of process)
    if (s._type === 'input')
      for (const f of (s._procedure.fields ?? []) as InputField[])
        if (f.key) vars.push({ path: `params.${f.key}`, kind: 'input', detail: f.name });
  vars.push({ path: 'record', kind: 'record' });
  vars.push({ path: 'record._id', kind: 'record' });
  for (const f of recordFields) vars.push({ path: `record.${f}`, kind: 'record' });
  for (const k of ['_id', 'nickname', 'account', 'phone']) vars.push({ path: `user.${k}`, kind: 'user' });
  // Walk down the path: in each list, the steps before the one on the path have run.
  let list = process;
  for (let level = 0; level < path.length; level += 2) {
    const i = path[level] as number;
    for (const s of list.slice(0, i)) addOutputs(s, vars);
    const here = list[i];
    const slot = path[level + 1] as string | undefined;
    if (!here || slot === undefined) break;
    if (here._type === 'loop') {
      const as = typeof here._procedure.as === 'string' && here._procedure.as ? here._procedure.as : 'item';
      vars.push({ path: `state.${as}`, kind: 'loop', detail: here._handle });
      vars.push({ path: `state.${as}_index`, kind: 'loop', detail: here._handle });
    }
    list = (here._procedure[slot] ?? []) as FlowStep[];
  }
  const seen = new Set<string>();
  return vars.filter((v) => !seen.has(v.path) && seen.add(v.path));
}

function addOutputs(s: FlowStep, vars: ScopeVar[]): void {
  const title = stepType(s._type)?.title.en ?? s._type;
  if (s._type !== 'input') vars.push({ path: `state.${s._handle}`, kind: 'step', detail: title });
  if (s._type === 'set' && typeof s._procedure.name === 'string' && s._procedure.name)
    vars.push({ path: `state.${s._procedure.name}`, kind: 'variable', detail: s._handle });
  for (const slot of slotsOf(s))
    for (const n of (s._procedure[slot] ?? []) as FlowStep[]) addOutputs(n, vars);
}

export const STEP_TYPE_LIST = STEP_TYPES;
