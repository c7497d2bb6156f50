/**
 * The editor's test run of a record trigger: what a trigger receives (`params.op`, `params.old`,
 * `params.new`) cannot be typed as input, so the test names a write instead — the kind, the row it
 * changes (update, remove) and the values it writes (create, update) — and the engine makes that write
 * first in the rolled-back transaction (engine.ts `$triggerWrite`). Checked here before any run.
 */

import type { FlowDocument, TriggerTestInput } from '../../shared/program/index.ts';
import { TRIGGER_OPS, type TriggerOp, triggerOps } from '../../shared/program/index.ts';
import { E, fail } from '../errors.ts';

const ID = /^[0-9a-f]{24}$/;
/** Field values a test write may carry at most (a table has far fewer fields). */
const MAX_VALUES = 500;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The trigger test of a test-run body, checked against the program (its table and the writes it runs
 * after); undefined when the body asks none. Field values are checked by the write itself.
 */
export function checkTriggerTest(
  doc: FlowDocument,
  body: { trigger?: unknown; record?: unknown },
): TriggerTestInput | undefined {
  const t = body.trigger;
  if (t === undefined || t === null) return undefined;
  if (!isObject(t)) fail(E.PROGRAM_TEST_TRIGGER, 'trigger: expected {op, record, values}');
  for (const k of Object.keys(t))
    if (k !== 'op' && k !== 'record' && k !== 'values') fail(E.PROGRAM_TEST_TRIGGER, `trigger.${k}: unknown`);
  const op = t.op;
  if (typeof op !== 'string' || !(TRIGGER_OPS as readonly string[]).includes(op))
    fail(E.PROGRAM_TEST_TRIGGER, `op: one of ${TRIGGER_OPS.join(', ')}`);
  if (!doc._option._entity) fail(E.PROGRAM_NO_TABLE);
  const on = triggerOps(doc._option.trigger);
  if (!on.length)
    fail(E.PROGRAM_NOT_TRIGGER, 'this program is not a record trigger (tick the writes it runs after)');
  if (!on.includes(op as TriggerOp))
    fail(E.PROGRAM_NOT_TRIGGER, `it runs after ${on.join(', ')}, not after ${op}`);
  if (body.record !== undefined && body.record !== '')
    fail(E.PROGRAM_TEST_TRIGGER, 'record: a trigger runs on the row of its write (trigger.record)');
  const record = t.record;
  if (op === 'create') {
    if (record !== undefined && record !== null)
      fail(E.PROGRAM_TEST_TRIGGER, 'record: a create has no row before it');
  } else if (typeof record !== 'string' || !ID.test(record))
    fail(E.PROGRAM_TEST_TRIGGER, `record: pick the row the ${op} changes`);
  const values = t.values;
  if (op === 'remove') {
    if (values !== undefined && values !== null)
      fail(E.PROGRAM_TEST_TRIGGER, 'values: a remove writes no values');
  } else if (values !== undefined && values !== null) {
    if (!isObject(values)) fail(E.PROGRAM_TEST_TRIGGER, 'values: expected {field: value}');
    if (Object.keys(values).length > MAX_VALUES)
      fail(E.PROGRAM_TEST_TRIGGER, `values: at most ${MAX_VALUES} fields`);
  }
  return {
    op: op as TriggerOp,
    ...(op === 'create' ? {} : { record: record as string }),
    ...(op !== 'remove' && isObject(values) ? { values } : {}),
  };
}
