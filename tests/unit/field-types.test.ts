/**
 * One map from a field's type to its query type (src/shared/api/fields.ts), read by the server's
 * table meta and by the workbench filter: both must answer what the map says, for every type.
 */
import { describe, expect, it } from 'vitest';
import { FIELD_TYPES as CLIENT_FIELD_TYPES } from '../../src/client/api/workbench.ts';
import { operatorsOf, queryTypeOf } from '../../src/client/screens/workbench/filter-query.ts';
import { FIELD_TYPES as SERVER_FIELD_TYPES } from '../../src/server/data/ddl.ts';
import { buildMeta } from '../../src/server/data/meta.ts';
import { FIELD_TYPES, QUERY_TYPE_OF_FIELD, queryTypeOfField } from '../../src/shared/api/fields.ts';
import { FIELD_TYPES as QUERY_TYPES } from '../../src/shared/query/operators.ts';

const hex = (n: number) => n.toString(16).padStart(24, '0');

describe('field type → query type', () => {
  it('maps every field type of the spec to a query type of the query language', () => {
    expect([...FIELD_TYPES].sort()).toEqual([
      'attachment',
      'boolean',
      'collection',
      'date',
      'email',
      'image',
      'longtext',
      'number',
      'option',
      'options',
      'phone',
      'relate',
      'string',
      'time',
      'url',
    ]);
    for (const t of FIELD_TYPES) expect(QUERY_TYPES, t).toContain(QUERY_TYPE_OF_FIELD[t]);
    expect(queryTypeOfField('string')).toBe('text');
    // The spec has no image query type and a field defaults to string: images are text (URLs).
    expect(queryTypeOfField('image')).toBe('text');
    expect(queryTypeOfField('toString')).toBeUndefined();
    expect(queryTypeOfField(undefined)).toBeUndefined();
  });

  it('server and client list the same field types', () => {
    expect(SERVER_FIELD_TYPES).toBe(FIELD_TYPES);
    expect(CLIENT_FIELD_TYPES).toBe(FIELD_TYPES);
  });

  it("the server's table meta queries each field as the map says", () => {
    const now = Date.now();
    const fields = FIELD_TYPES.map((type, i) => ({
      id: hex(i + 1),
      project_id: hex(100),
      entity_id: hex(200),
      name: type,
      code: `f_${type}`,
      type,
      relate_id: type === 'relate' || type === 'collection' ? hex(300) : null,
      options: '{}',
      hide: 0,
      sort: i,
      status: 'normal',
      created_at: now,
      updated_at: now,
    }));
    const meta = buildMeta(
      {
        id: hex(200),
        project_id: hex(100),
        module_id: null,
        name: 'T',
        code: 't',
        sort: 0,
        created_at: now,
        updated_at: now,
      },
      fields,
    );
    for (const t of FIELD_TYPES) {
      expect(meta.queryTypes[`f_${t}`], t).toBe(QUERY_TYPE_OF_FIELD[t]);
      expect(meta.columns[`f_${t}`]?.type, t).toBe(QUERY_TYPE_OF_FIELD[t]);
    }
  });

  it("the workbench filter offers each field the operators of the server's query type", () => {
    for (const t of FIELD_TYPES) expect(queryTypeOf({ _type: t }), t).toBe(QUERY_TYPE_OF_FIELD[t]);
    expect(operatorsOf({ _type: 'image' })).toEqual(operatorsOf({ _type: 'string' }));
    expect(operatorsOf({ _type: 'image' })).toContain('notnull');
  });
});
