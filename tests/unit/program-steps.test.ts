/** Every step type has an executor and a schema, and the validator cleans what it accepts. */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/server/errors.ts';
import { EXECUTORS } from '../../src/server/program/steps/index.ts';
import { parseFlowDocument } from '../../src/server/program/validate.ts';
import { STEP_TYPES } from '../../src/shared/program/index.ts';

describe('program step types', () => {
  it('one executor per declared type, and nothing else', () => {
    expect(Object.keys(EXECUTORS).sort()).toEqual(STEP_TYPES.map((s) => s.type).sort());
  });

  it('slots are array properties of their schema', () => {
    for (const s of STEP_TYPES) {
      const props = (s.schema.properties ?? {}) as Record<string, { type?: string; 'x-steps'?: boolean }>;
      for (const slot of s.slots) expect(props[slot]).toMatchObject({ type: 'array', 'x-steps': true });
    }
  });

  it('fills defaults and refuses unknown keys on a step', () => {
    const doc = parseFlowDocument({
      _process: [{ _type: 'loop', _handle: 'l', _procedure: { over: '[1]' } }],
    });
    expect(doc._process[0]!._procedure).toEqual({ over: '[1]', as: 'item', steps: [] });
    expect(() =>
      parseFlowDocument({ _process: [{ _type: 'set', _handle: 'a', _procedure: { value: '1' }, x: 1 }] }),
    ).toThrow(AppError);
  });
});
