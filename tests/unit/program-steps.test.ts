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

describe('code steps are parsed on save', () => {
  const doc = (source: string) => ({
    _process: [
      { _type: 'set', _handle: 'first', _procedure: { value: '1' } },
      { _type: 'code', _handle: 'calc', _procedure: { source } },
    ],
  });
  const refusal = (source: string): AppError => {
    try {
      parseFlowDocument(doc(source));
    } catch (err) {
      return err as AppError;
    }
    throw new Error(`accepted: ${source}`);
  };

  it('accepts a source that parses (return, nested functions, api)', () => {
    const ok = parseFlowDocument(doc('const f = (x) => x * 2;\nreturn f(api.params.n ?? 1);'));
    expect(ok._process[1]!._procedure.source).toContain('return f(');
  });

  it('refuses a source that does not parse with PROGRAM_INVALID naming the step', () => {
    for (const bad of ['return (1 +;', 'function () {', 'let a = 1; let a = 2;', 'with (api) {}']) {
      const e = refusal(bad);
      expect(e).toBeInstanceOf(AppError);
      expect(e.def.code).toBe(1801);
      expect(e.message).toContain('_process[1]._procedure.source');
      expect(e.message).toContain('step calc does not parse');
    }
  });

  it('refuses a source that would close the wrapper it runs in', () => {
    const e = refusal('return 1; })(api); globalThis.x = 1; (function () {');
    expect(e.def.code).toBe(1801);
    expect(e.message).toContain('step calc');
  });

  it('checks code steps nested in branches', () => {
    expect(() =>
      parseFlowDocument({
        _process: [
          {
            _type: 'condition',
            _handle: 'c',
            _procedure: {
              if: 'true',
              yes: [{ _type: 'code', _handle: 'inner', _procedure: { source: '}' } }],
            },
          },
        ],
      }),
    ).toThrow(/step inner does not parse/);
  });
});
