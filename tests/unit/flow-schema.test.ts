/** schemas/flow.schema.json is the step types' schemas (one definition per type) and checks documents. */
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import schema from '../../schemas/flow.schema.json' with { type: 'json' };
import { STEP_TYPES } from '../../src/shared/program/index.ts';
import { flowJsonSchema } from '../../src/shared/program/json-schema.ts';

describe('flow.schema.json', () => {
  it('is what the step types make (regenerate it with flowJsonSchema after changing steps.ts)', () => {
    expect(schema).toEqual(JSON.parse(JSON.stringify(flowJsonSchema())));
  });

  it('has one definition per step type', () => {
    for (const s of STEP_TYPES) expect(schema.definitions).toHaveProperty(`step_${s.type}`);
  });

  it('accepts nested steps and refuses unknown types and keys', () => {
    const validate = new Ajv({ strict: false }).compile(schema);
    const ok = {
      _process: [
        { _type: 'input', _handle: 'in', _procedure: { fields: [{ key: 'n', name: 'N', type: 'number' }] } },
        {
          _type: 'condition',
          _handle: 'c',
          _procedure: {
            if: 'params.n > 1',
            yes: [
              {
                _type: 'update',
                _handle: 'u',
                _entity: 'orders',
                _procedure: { id: 'record._id', values: {} },
              },
            ],
          },
        },
      ],
    };
    expect(validate(ok), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ _process: [{ _type: 'nope', _handle: 'x', _procedure: {} }] })).toBe(false);
    expect(
      validate({
        _process: [
          {
            _type: 'condition',
            _handle: 'c',
            _procedure: { if: '1', yes: [{ _type: 'set', _handle: 's', x: 1 }] },
          },
        ],
      }),
    ).toBe(false);
    expect(
      validate({ _process: [{ _type: 'update', _handle: 'u', _procedure: { id: '1', values: {} } }] }),
    ).toBe(false);
  });
});
