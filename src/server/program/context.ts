/** What a run carries from step to step, and the signals and errors of the engine. */
import type { Kysely } from 'kysely';
import type { ExprScope } from '../../shared/expr/index.ts';
import { evaluate, renderTemplate } from '../../shared/expr/index.ts';
import type {
  DisplayItem,
  FlowDocument,
  FlowStep,
  RecordChange,
  TraceEntry,
} from '../../shared/program/index.ts';
import { PROGRAM_LIMITS } from '../../shared/program/index.ts';
import type { EntityMeta } from '../data/meta.ts';
import type { WriteHooks } from '../data/record-hooks.ts';
import type { Dialect } from '../db/index.ts';
import type { DB } from '../db/schema.ts';
import { AppError, E } from '../errors.ts';
import type { TriggerFlow } from './service.ts';

export interface OutboxNotice {
  step: string;
  /** The flow whose notify step queued it. */
  flow: string;
  users: string[];
  roles: string[];
  message: string;
}

/** An HTTP request of a fire-and-forget http step: sent after the run commits. */
export interface OutboxRequest {
  step: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A flow being run: the top one, one called by a call step, or one a record write triggered. */
export interface RunFrameFlow {
  id: string;
  name: string;
  doc: FlowDocument;
}

/** Where HTTP steps may go and how much they may read (config: PROGRAM_HTTP_*). */
export interface HttpStepOptions {
  allow: ReadonlySet<string>;
  timeoutMs: number;
  maxBytes: number;
}

export interface RunContext {
  /** The run's transaction: every query of a run goes through it. */
  trx: Kysely<DB>;
  dialect: Dialect;
  projectId: string;
  flowId: string;
  /** The document of the flow this frame runs. */
  doc: FlowDocument;
  /** The flow ids of the frames above this one (calls and triggers), outermost first. */
  stack: string[];
  test: boolean;
  user: { _id: string; account: string | null; nickname: string; phone: string | null } | null;
  input: Record<string, unknown>;
  record: Record<string, unknown> | null;
  state: Record<string, unknown>;
  /** Metas of the tables the flow names, by the reference written in `_entity`. */
  metas: Map<string, EntityMeta>;
  deadline: number;
  /** Shared by every frame of the run: steps executed so far. */
  counter: { executed: number };
  trace: TraceEntry[];
  /** The first step that failed in any frame of the run (for the log). */
  fault: { step?: string };
  changes: RecordChange[];
  display: DisplayItem[];
  outbox: OutboxNotice[];
  requests: OutboxRequest[];
  http: HttpStepOptions;
  /** The trigger programs of (table, kind of write), looked up once per run. */
  triggerCache: Map<string, Promise<TriggerFlow[]>>;
  /** The project's trigger programs, loaded once before the run (absent: looked up per write). */
  triggers?: TriggerFlow[];
  /** Record triggers of the writes this run makes (same transaction, one frame deeper). */
  hooks: WriteHooks;
  /** The frame's expression scope, once made (scopeOf). */
  scope?: ExprScope;
  /** Runs a nested step list (branches, loop bodies). */
  runSteps(list: FlowStep[]): Promise<void>;
  /** Runs another flow in this run's transaction, one level deeper; answers its return value. */
  runFlow(
    flow: RunFrameFlow,
    input: Record<string, unknown>,
    record: Record<string, unknown> | null,
  ): Promise<unknown>;
}

/** Thrown by a return step: ends the run with a value. */
export class ReturnSignal {
  constructor(readonly value: unknown) {}
}

export function limitError(what: string): AppError {
  return new AppError(E.PROGRAM_LIMIT, what);
}

export function checkClock(ctx: RunContext): void {
  if (Date.now() > ctx.deadline) throw limitError(`the run took longer than ${PROGRAM_LIMITS.maxRunMs} ms`);
}

/** A frame's expression scope: made once per frame (its input, record and state object stay the same). */
export function scopeOf(ctx: RunContext): ExprScope {
  const s = ctx.scope;
  if (s && s.state === ctx.state && s.record === ctx.record && s.params === ctx.input) return s;
  ctx.scope = { user: ctx.user, params: ctx.input, record: ctx.record, state: ctx.state };
  return ctx.scope;
}

/** The value of an expression in the run's scope; a failing expression fails the step. */
export function evalExpr(ctx: RunContext, src: unknown, what: string): unknown {
  if (src === undefined || src === '') return undefined;
  const r = evaluate(src, scopeOf(ctx));
  if (!r.ok) throw new AppError(E.PROGRAM_INVALID, `${what}: ${r.error.message}`);
  return r.value;
}

export function fillTemplate(ctx: RunContext, text: unknown): string {
  return typeof text === 'string' ? renderTemplate(text, scopeOf(ctx)) : '';
}

/** `{ "$expr": "…" }` parts of a filter tree replaced by their values. */
export function resolveBindings(ctx: RunContext, v: unknown, what: string): unknown {
  if (Array.isArray(v)) return v.map((x) => resolveBindings(ctx, x, what));
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    if (typeof o.$expr === 'string') return evalExpr(ctx, o.$expr, what);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, resolveBindings(ctx, x, what)]));
  }
  return v;
}

export function metaFor(ctx: RunContext, step: FlowStep): EntityMeta {
  const m = step._entity ? ctx.metas.get(step._entity) : undefined;
  if (!m) throw new AppError(E.ENTITY_NOT_FOUND, step._entity ?? '');
  return m;
}

/**
 * A step type's executor. Steps that wait for nothing (set, return, input, display) answer at once:
 * the step loop awaits only a promise (a run makes about 70 steps, most in loops).
 */
export type Executor = (step: FlowStep, ctx: RunContext) => unknown;
