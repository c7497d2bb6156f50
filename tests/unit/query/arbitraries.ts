/** fast-check generators: random rows over FIELDS, valid clauses, and hostile request JSON. */
import fc from 'fast-check';
import { DATE_PRESETS, OPERATORS } from '../../../src/shared/query/index.ts';
import { NOW } from './fixtures.ts';

const DAY = 86_400_000;
const text = fc.string({ unit: fc.constantFrom('a', 'A', 'b', '%', '_', ' ', 'é', '😀'), maxLength: 5 });
const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof(fc.constantFrom(null, undefined), a);

export const qtyArb = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -5, max: 5, noNaN: true }));
export const atArb = fc.integer({ min: NOW - 60 * DAY, max: NOW + 60 * DAY });
export const dateValueArb = fc.oneof(atArb, fc.constantFrom(...DATE_PRESETS));

export const rowsArb = fc
  .array(
    fc.record(
      {
        name: maybe(fc.oneof(fc.constant(''), text)),
        qty: maybe(qtyArb),
        at: maybe(atArb),
        clock: maybe(fc.constantFrom('', '08:30:00', '17:00:00')),
        owner: maybe(fc.constantFrom('', 'u1', 'u2', 'u3')),
        tags: maybe(fc.subarray(['t1', 't2', 't3'])),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 30 },
  )
  .map((rows) => rows.map((r, i) => ({ ...r, _id: `r${String(i).padStart(3, '0')}` })));

const clauseFor = (field: string, type: keyof typeof OPERATORS, value: fc.Arbitrary<unknown>) =>
  fc.record({
    field: fc.constant(field),
    type: fc.constant(type),
    opt: fc.constantFrom(...OPERATORS[type]),
    value,
  });

/** Clauses that normalize without error (some are dropped for lack of value). */
export const validClauseArb = fc
  .oneof(
    clauseFor('name', 'text', maybe(text)),
    clauseFor('qty', 'number', fc.oneof(qtyArb, fc.tuple(maybe(qtyArb), maybe(qtyArb)))),
    clauseFor('at', 'date', fc.oneof(dateValueArb, fc.tuple(maybe(dateValueArb), maybe(dateValueArb)))),
    clauseFor('clock', 'time', fc.constantFrom('08:30:00', '17:00')),
    clauseFor('owner', 'relate', fc.subarray(['u1', 'u2', 'u3', '$$USER'])),
    clauseFor('tags', 'collection', fc.subarray(['t1', 't2', 't3'])),
  )
  .filter((c) => {
    const between = c.opt === 'between' || c.opt === 'notbetween';
    return between === Array.isArray(c.value);
  });

const hostileScalar = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e308, '1e999', '', '%', "'; drop table x; --"),
  fc.constantFrom(
    '$$USER',
    '$$USER@',
    '$$USER@__proto__',
    '$$USER@nickname',
    '\u0000',
    '\ud800',
    '2024-02-30',
  ),
  fc.string({ maxLength: 1100 }),
  fc.constantFrom(...DATE_PRESETS),
);

const often = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: bad, weight: 1 });

const goodValue = fc.oneof(
  text,
  qtyArb,
  dateValueArb,
  fc.tuple(maybe(qtyArb), maybe(qtyArb)),
  fc.tuple(maybe(dateValueArb), maybe(dateValueArb)),
  fc.subarray(['u1', 'u2', 't1', 't2', '$$USER', '$$USER@nickname']),
  fc.constantFrom('08:30', '17:00:00', '$$USER', '$$USER@nickname', '$$USER@nope'),
);

/** null most of the time. */
const rarely = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(null), weight: 12 }, { arbitrary: a, weight: 1 });

const PAIRS: Array<[string, keyof typeof OPERATORS]> = [
  ['name', 'text'],
  ['qty', 'number'],
  ['at', 'date'],
  ['clock', 'time'],
  ['owner', 'relate'],
  ['tags', 'collection'],
  ['_id', '_id'],
];

/** Mostly a well-typed clause with a plausible operator; sometimes any part is junk or missing. */
const hostileClause = fc
  .tuple(
    fc.constantFrom(...PAIRS),
    fc.nat(),
    often(goodValue, fc.oneof(hostileScalar, fc.array(hostileScalar, { maxLength: 3 }))),
    rarely(fc.constantFrom('field', 'type', 'opt', 'value')),
    rarely(fc.tuple(fc.constantFrom('field', 'type', 'opt'), hostileScalar)),
  )
  .map(([[field, type], n, value, missing, junk]) => {
    const ops = [...OPERATORS[type], ...(type === 'date' ? ['today', 'past7'] : [])];
    const clause: Record<string, unknown> = { field, type, opt: ops[n % ops.length], value };
    if (missing) delete clause[missing];
    if (junk) clause[junk[0]] = junk[1];
    return clause;
  });

/** Nearly-valid and hostile query trees, deeper than the limit sometimes. */
export const hostileTreeArb = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: hostileClause, weight: 8 },
    {
      arbitrary: fc.record({ $and: fc.array(tie('node'), { maxLength: 4 }) }, { requiredKeys: [] }),
      weight: 2,
    },
    { arbitrary: fc.record({ $or: fc.array(tie('node'), { maxLength: 4 }) }), weight: 2 },
    { arbitrary: fc.record({ $or: fc.array(tie('node'), { maxLength: 3 }), $and: tie('node') }), weight: 1 },
    { arbitrary: fc.array(tie('node'), { maxLength: 3 }), weight: 1 },
    { arbitrary: hostileScalar, weight: 1 },
  ),
})).node;

/** Whole requests where any key may be junk. */
export const hostileRequestArb = fc.record(
  {
    query: hostileTreeArb,
    sort: fc.oneof(hostileScalar, fc.array(fc.record({ field: hostileScalar, order: hostileScalar }))),
    page: fc.oneof(hostileScalar, fc.record({ index: hostileScalar, size: hostileScalar })),
    all: hostileScalar,
    count: hostileScalar,
    empty: hostileScalar,
  },
  { requiredKeys: [] },
);
