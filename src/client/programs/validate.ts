/**
 * The client-side check of one step's settings against its type's schema (the same schemas the server
 * validates with), answered as messages by dotted path (`values.qty`, `fields.0.key`), so the panel
 * shows each beside its field while the builder types. The server checks again on save.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { HANDLE, STEP_TYPES } from '../../shared/program/index.ts';

const pointerToPath = (p: string) => p.split('/').slice(1).join('.');
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

function validatorOf(type: string): ValidateFunction | undefined {
  let v = compiled.get(type);
  if (!v) {
    const def = STEP_TYPES.find((s) => s.type === type);
    if (!def) return undefined;
    // Nested steps are checked as their own steps.
    const schema = structuredClone(def.schema) as { properties?: Record<string, Record<string, unknown>> };
    for (const slot of def.slots) if (schema.properties?.[slot]) schema.properties[slot] = { type: 'array' };
    v = ajv.compile(schema);
    compiled.set(type, v);
  }
  return v;
}

export function stepErrors(step: {
  _type: string;
  _handle: string;
  _procedure: unknown;
}): Record<string, string> {
  const out: Record<string, string> = {};
  if (!HANDLE.test(step._handle)) out._handle = 'must match pattern';
  const v = validatorOf(step._type);
  if (v && !v(step._procedure)) {
    for (const e of v.errors ?? []) {
      let path = pointerToPath(e.instancePath);
      if (e.keyword === 'required')
        path = path ? `${path}.${e.params.missingProperty}` : e.params.missingProperty;
      if (!(path in out)) out[path] = e.message ?? 'invalid';
    }
  }
  return out;
}
