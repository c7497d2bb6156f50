/** Properties of the language and hostile-input fuzz (fast-check). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { E } from '../../../src/shared/errors.ts';
import {
  evaluate,
  matches,
  type NormalizedQuery,
  normalize,
  type QueryContext,
  QueryError,
} from '../../../src/shared/query/index.ts';
import {
  atArb,
  dateValueArb,
  hostileRequestArb,
  hostileTreeArb,
  qtyArb,
  rowsArb,
  validClauseArb,
} from './arbitraries.ts';
import { CTX, FIELDS } from './fixtures.ts';

type Row = { _id: string } & Record<string, unknown>;
const CODES = new Set([E.QUERY_INVALID.code, E.QUERY_TOO_COMPLEX.code]);

function norm(request: unknown, ctx: QueryContext = CTX): NormalizedQuery {
  const r = normalize(request, ctx);
  if (!r.ok) throw r.error;
  return r.query;
}

function run(rows: Row[], query: unknown): string[] {
  return evaluate(rows, norm({ query, all: true }), FIELDS).rows.map((r) => r._id);
}

const nonEmpty = (rows: Row[], field: string) =>
  rows.filter((r) => r[field] !== null && r[field] !== undefined && r[field] !== '').map((r) => r._id);

describe('hostile input', () => {
  function safe(request: unknown, rows: Row[] = []) {
    const r = normalize(request, CTX);
    if (!r.ok) {
      expect(r.error).toBeInstanceOf(QueryError);
      expect(CODES.has(r.error.def.code)).toBe(true);
      expect(r.error.message).toContain(r.error.path);
      return;
    }
    expect(JSON.parse(JSON.stringify(r.query))).toStrictEqual(r.query); // plain, serialisable data
    const answer = evaluate(rows, r.query, FIELDS).rows;
    expect(answer.every((row) => rows.includes(row))).toBe(true);
  }

  it('random JSON answers a clean query or a coded error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => safe(v)),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (query) => safe({ query })),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.anything(), (query) => safe({ query, sort: query, page: query })),
      { numRuns: 300 },
    );
  });

  it('near-valid and hostile trees answer a clean query or a coded error', () => {
    fc.assert(
      fc.property(hostileTreeArb, rowsArb, (query, rows) => safe({ query, all: true }, rows)),
      { numRuns: 1500 },
    );
    fc.assert(
      fc.property(hostileRequestArb, rowsArb, (req, rows) => safe(req, rows)),
      { numRuns: 500 },
    );
  });

  it('refuses a 100,000-deep value without recursing into it', () => {
    let deep: unknown = '$$USER';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const cases = [
      ['text', 'eq'],
      ['number', 'between'],
      ['date', 'between'],
      ['relate', 'set'],
      ['collection', 'set'],
    ];
    for (const [type, opt] of cases) {
      const r = normalize({ query: [{ field: 'x', type, opt, value: deep }] }, { ...CTX, fields: undefined });
      expect(r.ok ? '' : r.error.path).toMatch(/^query\.\$and\[0\]\.value/);
    }
  });

  it('refuses a 100,000-deep tree at once instead of recursing', () => {
    let deep: unknown = { field: 'name', type: 'text', opt: 'eq', value: 'x' };
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? { $or: [deep] } : [deep];
    const t = performance.now();
    const r = normalize({ query: deep }, CTX);
    expect(r.ok ? 0 : r.error.def.code).toBe(E.QUERY_TOO_COMPLEX.code);
    expect(performance.now() - t).toBeLessThan(1000);
  });
});

describe('algebra', () => {
  it('$or and $and of a clause with itself equal the clause', () => {
    fc.assert(
      fc.property(rowsArb, validClauseArb, (rows, c) => {
        const one = run(rows, [c]);
        expect(run(rows, { $or: [c, c] })).toEqual(one);
        expect(run(rows, { $and: [c, { $and: [c] }] })).toEqual(one);
      }),
      { numRuns: 400 },
    );
  });

  it('the answer is a subset of the rows, counted exactly, and pages concatenate', () => {
    fc.assert(
      fc.property(
        rowsArb,
        fc.array(validClauseArb, { maxLength: 4 }),
        fc.integer({ min: 1, max: 7 }),
        (rows, cs, size) => {
          const all = evaluate(rows, norm({ query: { $or: cs }, all: true, count: true }), FIELDS);
          expect(all.count).toBe(all.rows.length);
          const paged: Row[] = [];
          for (let index = 1; paged.length < all.rows.length; index++) {
            const page = evaluate(rows, norm({ query: { $or: cs }, page: { index, size } }), FIELDS).rows;
            expect(page.length).toBeGreaterThan(0);
            paged.push(...page);
          }
          expect(paged).toEqual(all.rows);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('$or is the union and $and the intersection of its clauses', () => {
    fc.assert(
      fc.property(rowsArb, validClauseArb, validClauseArb, (rows, a, b) => {
        // A clause without a value is removed (not "true"), so it takes no part in the union.
        fc.pre(norm({ query: [a] }).where !== null && norm({ query: [b] }).where !== null);
        const [ra, rb] = [new Set(run(rows, [a])), new Set(run(rows, [b]))];
        const ids = rows.map((r) => r._id);
        expect(run(rows, { $or: [a, b] })).toEqual(ids.filter((id) => ra.has(id) || rb.has(id)));
        expect(run(rows, { $and: [a, b] })).toEqual(ids.filter((id) => ra.has(id) && rb.has(id)));
      }),
      { numRuns: 300 },
    );
  });

  it('sort order does not depend on input order', () => {
    const sortArb = fc
      .subarray(['name', 'qty', 'at', 'clock', 'owner'])
      .chain((fs) =>
        fc.tuple(
          ...fs.map((field) =>
            fc.record({ field: fc.constant(field), order: fc.constantFrom('asc', 'desc') }),
          ),
        ),
      );
    fc.assert(
      fc.property(rowsArb, sortArb, fc.integer(), (rows, sort, seed) => {
        const q = norm({ sort, all: true });
        const shuffled = [...rows].sort(
          (x, y) => ((x._id.charCodeAt(3) * seed) % 7) - ((y._id.charCodeAt(3) * seed) % 7),
        );
        expect(evaluate(shuffled, q, FIELDS).rows).toEqual(evaluate(rows, q, FIELDS).rows);
      }),
      { numRuns: 200 },
    );
  });
});

describe('complements and swaps', () => {
  const textArb = fc.string({ unit: fc.constantFrom('a', 'A', '%', '_', '😀'), minLength: 1, maxLength: 3 });

  it('notcontain is the complement of contain on non-empty text; ne of eq', () => {
    fc.assert(
      fc.property(rowsArb, textArb, (rows, value) => {
        const c = (opt: string) => run(rows, [{ field: 'name', type: 'text', opt, value }]);
        const present = nonEmpty(rows, 'name');
        expect([...c('contain'), ...c('notcontain')].sort()).toEqual(present);
        expect([...c('eq'), ...c('ne')].sort()).toEqual(present);
      }),
      { numRuns: 300 },
    );
  });

  it('number between equals its swap; notbetween is its complement on non-null', () => {
    fc.assert(
      fc.property(rowsArb, qtyArb, qtyArb, (rows, a, b) => {
        const c = (opt: string, value: unknown) => run(rows, [{ field: 'qty', type: 'number', opt, value }]);
        expect(c('between', [a, b])).toEqual(c('between', [b, a]));
        expect([...c('between', [a, b]), ...c('notbetween', [a, b])].sort()).toEqual(nonEmpty(rows, 'qty'));
        expect(c('between', [a, a])).toEqual(c('eq', a));
      }),
      { numRuns: 300 },
    );
  });

  it('date between equals its swap; eq and ne of a value split the non-null rows', () => {
    fc.assert(
      fc.property(rowsArb, dateValueArb, dateValueArb, (rows, a, b) => {
        const c = (opt: string, value: unknown) => run(rows, [{ field: 'at', type: 'date', opt, value }]);
        expect(c('between', [a, b])).toEqual(c('between', [b, a]));
        expect([...c('eq', a), ...c('ne', a)].sort()).toEqual(nonEmpty(rows, 'at'));
        expect([...c('lt', a), ...c('eq', a), ...c('gt', a)].sort()).toEqual(nonEmpty(rows, 'at'));
      }),
      { numRuns: 300 },
    );
  });

  it('a date between covers whole days: every instant of both end days matches', () => {
    fc.assert(
      fc.property(atArb, atArb, (a, b) => {
        const q = norm({ query: [{ field: 'at', type: 'date', opt: 'between', value: [a, b] }] });
        const row = (at: number) => ({ _id: 'x', at });
        expect(matches(q.where, row(a)) && matches(q.where, row(b))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
