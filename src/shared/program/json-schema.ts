/**
 * The JSON Schema of a program's flow document (schemas/flow.schema.json), made from the step types'
 * schemas (steps.ts): one definition per step type, `$ref`d from the step list; nested step lists
 * (`x-steps`) refer back to the step list. A unit test keeps the committed file equal to this.
 */
import { HANDLE } from './limits.ts';
import { STEP_TYPES } from './steps.ts';
import { TRIGGER_OPS } from './trigger.ts';

type Schema = Record<string, unknown>;

export function flowJsonSchema(): Schema {
  const definitions: Record<string, Schema> = {};
  for (const s of STEP_TYPES) {
    const proc = structuredClone(s.schema) as { properties?: Record<string, Schema> };
    for (const slot of s.slots)
      if (proc.properties?.[slot])
        proc.properties[slot] = { ...proc.properties[slot], items: { $ref: '#/definitions/step' } };
    definitions[`step_${s.type}`] = {
      title: s.title.en,
      'x-zh': s.title.zh,
      type: 'object',
      additionalProperties: false,
      required: ['_type', '_handle', ...(s.entity ? ['_entity'] : [])],
      properties: {
        _type: { const: s.type },
        _handle: { type: 'string', pattern: HANDLE.source },
        _name: { type: 'string', maxLength: 128 },
        ...(s.entity ? { _entity: { type: 'string', minLength: 1, maxLength: 64 } } : {}),
        _procedure: proc,
      },
    };
  }
  definitions.step = {
    type: 'object',
    required: ['_type'],
    properties: { _type: { enum: STEP_TYPES.map((s) => s.type) } },
    oneOf: STEP_TYPES.map((s) => ({ $ref: `#/definitions/step_${s.type}` })),
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://schemas.lowcode.local/flow.schema.json',
    title: 'Program',
    description:
      'The document of a flow of _type program: its steps (_process, one schema per step type) and options. Generated from src/shared/program/steps.ts (json-schema.ts); the server also checks expressions, code syntax, handles and nesting.',
    type: 'object',
    properties: {
      _process: { type: 'array', items: { $ref: '#/definitions/step' } },
      _option: {
        type: 'object',
        properties: {
          _entity: { type: 'string', maxLength: 64 },
          trigger: {
            type: 'object',
            additionalProperties: false,
            required: ['on'],
            properties: {
              on: { type: 'array', minItems: 1, items: { enum: [...TRIGGER_OPS] } },
            },
          },
        },
      },
    },
    definitions,
  };
}
