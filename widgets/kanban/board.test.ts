import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyWrites,
  boardCards,
  boardColumns,
  NO_GROUP,
  planMove,
  RANK_STEP,
  rankBetween,
} from './board.ts';

const row = (id: string, status: string, rank?: unknown) => ({
  _id: id,
  status,
  ...(rank === undefined ? {} : { rank }),
});
const order = (rows: Record<string, unknown>[], status: string) =>
  boardCards(rows, boardColumns([], ['todo', 'doing', 'done'], rows, 'status', 'Other'), 'status', 'rank')
    .get(status)!
    .map((c) => c.id);

describe('boardColumns', () => {
  it('declared columns win, then the option list, then values found in rows', () => {
    const rows = [row('a', 'x'), row('b', 'y')];
    expect(
      boardColumns([{ value: 'y', title: 'Why', color: '#f00' }], ['x'], rows, 'status', 'Other'),
    ).toEqual([
      { value: 'y', title: 'Why', color: '#f00' },
      { value: NO_GROUP, title: 'Other' },
    ]);
    expect(boardColumns([], ['x', 'y', 'z'], rows, 'status', 'Other').map((c) => c.value)).toEqual([
      'x',
      'y',
      'z',
    ]);
    expect(boardColumns([], [], rows, 'status', 'Other').map((c) => c.value)).toEqual(['x', 'y']);
  });
  it('adds the catch-all column only when a card needs it, and never duplicates a value', () => {
    expect(boardColumns([], ['x', 'x'], [row('a', 'x')], 'status', 'Other')).toEqual([
      { value: 'x', title: 'x' },
    ]);
    const cols = boardColumns([], ['x'], [row('a', ''), row('b', 'gone')], 'status', 'Other');
    expect(cols.map((c) => c.value)).toEqual(['x', NO_GROUP]);
  });
});

describe('boardCards', () => {
  it('orders by rank, unranked cards last in row order, stray values in the catch-all column', () => {
    const rows = [
      row('a', 'todo'),
      row('b', 'todo', 5),
      row('c', 'todo', '2'),
      row('d', 'todo'),
      row('e', 'lost', 1),
    ];
    const cols = boardColumns([], ['todo'], rows, 'status', 'Other');
    const by = boardCards(rows, cols, 'status', 'rank');
    expect(by.get('todo')!.map((c) => c.id)).toEqual(['c', 'b', 'a', 'd']);
    expect(by.get(NO_GROUP)!.map((c) => c.id)).toEqual(['e']);
  });
});

describe('rankBetween', () => {
  it('answers a number strictly between, or null when none exists', () => {
    expect(rankBetween(null, null)).toBe(RANK_STEP);
    expect(rankBetween(null, 10)).toBe(10 - RANK_STEP);
    expect(rankBetween(10, null)).toBe(10 + RANK_STEP);
    expect(rankBetween(1, 2)).toBe(1.5);
    expect(rankBetween(2, 2)).toBeNull();
    expect(rankBetween(3, 2)).toBeNull();
    expect(rankBetween(1, 1 + Number.EPSILON)).toBeNull();
  });
});

describe('planMove', () => {
  const rows = [row('a', 'todo', 1024), row('b', 'todo', 2048), row('c', 'doing', 1024)];
  const board = () =>
    boardCards(rows, boardColumns([], ['todo', 'doing', 'done'], rows, 'status', 'O'), 'status', 'rank');

  it('a move across columns writes one record: its group and a rank between the new neighbours', () => {
    expect(planMove(board(), 'a', 'doing', 0, 'status', 'rank')).toEqual([
      { id: 'a', values: { status: 'doing', rank: 1024 - RANK_STEP } },
    ]);
    expect(planMove(board(), 'a', 'doing', 1, 'status', 'rank')).toEqual([
      { id: 'a', values: { status: 'doing', rank: 1024 + RANK_STEP } },
    ]);
    expect(planMove(board(), 'a', 'done', 0, 'status', 'rank')).toEqual([
      { id: 'a', values: { status: 'done', rank: RANK_STEP } },
    ]);
  });
  it('a move within a column writes only the rank; a drop on its own spot writes nothing', () => {
    expect(planMove(board(), 'a', 'todo', 1, 'status', 'rank')).toEqual([
      { id: 'a', values: { rank: 2048 + RANK_STEP } },
    ]);
    expect(planMove(board(), 'a', 'todo', 0, 'status', 'rank')).toEqual([]);
    expect(planMove(board(), 'nope', 'todo', 0, 'status', 'rank')).toEqual([]);
    expect(planMove(board(), 'a', 'no-column', 0, 'status', 'rank')).toEqual([]);
  });
  it('renumbers the target column when no rank fits, writing only cards whose rank changes', () => {
    const tied = [row('a', 'todo', 5), row('b', 'todo', 5), row('c', 'doing', 1)];
    const by = boardCards(tied, boardColumns([], ['todo', 'doing'], tied, 'status', 'O'), 'status', 'rank');
    const writes = planMove(by, 'c', 'todo', 1, 'status', 'rank');
    expect(writes).toEqual([
      { id: 'a', values: { rank: RANK_STEP } },
      { id: 'c', values: { status: 'todo', rank: 2 * RANK_STEP } },
      { id: 'b', values: { rank: 3 * RANK_STEP } },
    ]);
    expect(order(applyWrites(tied, writes), 'todo')).toEqual(['a', 'c', 'b']);
  });
  it('without a rank field only the group changes', () => {
    expect(planMove(board(), 'a', 'doing', 0, 'status', '')).toEqual([
      { id: 'a', values: { status: 'doing' } },
    ]);
    expect(planMove(board(), 'a', 'todo', 1, 'status', '')).toEqual([]);
  });

  it('any sequence of moves puts each card exactly where it was dropped, keeping the others in order', () => {
    const cols = ['todo', 'doing', 'done'];
    const move = fc.record({ card: fc.nat(7), to: fc.constantFrom(...cols), index: fc.nat(9) });
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }), {
          minLength: 8,
          maxLength: 8,
        }),
        fc.array(move, { maxLength: 40 }),
        (ranks, moves) => {
          let rows: Record<string, unknown>[] = ranks.map((r, i) => row(`k${i}`, cols[i % 3]!, r));
          for (const m of moves) {
            const id = `k${m.card}`;
            const before = Object.fromEntries(cols.map((c) => [c, order(rows, c).filter((x) => x !== id)]));
            const writes = planMove(
              boardCards(rows, boardColumns([], cols, rows, 'status', 'O'), 'status', 'rank'),
              id,
              m.to,
              m.index,
              'status',
              'rank',
            );
            rows = applyWrites(rows, writes);
            const expected = [...before[m.to]!];
            expected.splice(Math.min(m.index, expected.length), 0, id);
            expect(order(rows, m.to)).toEqual(expected);
            for (const c of cols) if (c !== m.to) expect(order(rows, c)).toEqual(before[c]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
