import { describe, expect, it } from 'vitest';
import { otherSchemaGone } from '../../src/server/db/index.ts';

// Kysely's PostgreSQL introspection names every schema's tables: a schema or table dropped beside
// us (another test or tenant) fails our migration run with an error about *their* schema.
describe('otherSchemaGone', () => {
  it("knows another schema's dropped schema or table", () => {
    expect(otherSchemaGone(new Error('schema "t_1_a_0" does not exist'), 't_2_b_0')).toBe(true);
    expect(
      otherSchemaGone(new Error('relation "t_1_a_0.e_6b09eeb15d54cb24e2a4b77c" does not exist'), 't_2_b_0'),
    ).toBe(true);
  });
  it('does not retry over our own schema or an unqualified relation', () => {
    expect(otherSchemaGone(new Error('schema "t_2_b_0" does not exist'), 't_2_b_0')).toBe(false);
    expect(otherSchemaGone(new Error('relation "t_2_b_0.e_1" does not exist'), 't_2_b_0')).toBe(false);
    expect(otherSchemaGone(new Error('relation "e_1" does not exist'), 't_2_b_0')).toBe(false);
    expect(otherSchemaGone(new Error('syntax error'), 't_2_b_0')).toBe(false);
  });
  it("knows another table's column gone while the migrator looked for its tables, not during a migration", () => {
    const gone = new Error('column "project_id" of relation "print_keys" does not exist');
    // No results: the error came before any migration ran (the introspection).
    expect(otherSchemaGone(gone, 't_2_b_0', undefined)).toBe(true);
    // Results: a migration of ours ran and failed; that is ours to report.
    expect(otherSchemaGone(gone, 't_2_b_0', [{ status: 'Error' }])).toBe(false);
    expect(otherSchemaGone(new Error('syntax error'), 't_2_b_0', undefined)).toBe(false);
  });
});
