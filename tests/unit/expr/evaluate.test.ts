import { describe, expect, it } from 'vitest';
import {
  type ExprScope,
  evaluate,
  renderTemplate,
  resolveProps,
  resolveValue,
} from '../../../src/shared/expr/index.ts';

const scope: ExprScope = {
  user: { name: 'Ann', age: 30, roles: ['admin', 'dev'] },
  params: { id: '42' },
  state: { count: 3, items: [1, 2, 3.5], nested: { deep: { x: 'y' } }, nil: null },
  widgets: { input1: { value: 'hello' } },
  record: { price: 9.999, created: '2024-01-02T00:30:00Z' },
};

const ok: [string, unknown][] = [
  ['1 + 2 * 3', 7],
  ['(1 + 2) * 3', 9],
  ['10 % 4', 2],
  ['-state.count', -3],
  ['2 - 3 - 4', -5],
  ["'a' + 1", 'a1'],
  ['"x\\ty"', 'x\ty'],
  ['user.name', 'Ann'],
  ["user['age'] >= 18", true],
  ['user.roles[1]', 'dev'],
  ['user.roles.length', 2],
  ['user.name.length', 3],
  ['state.nested.deep.x', 'y'],
  ['state.missing?.x', undefined],
  ['state.nil ?? "dflt"', 'dflt'],
  ['state.count > 2 && user.name == "Ann"', true],
  ['state.count < 2 || false', false],
  ['!state.count', false],
  ['state.count == 3 ? "three" : "other"', 'three'],
  ['state.count === 4 ? 1 : state.count === 3 ? 2 : 3', 2],
  ['null == undefined', true],
  ['"1" == 1', false],
  ['len(user.roles)', 2],
  ['len("abcd")', 4],
  ['upper(user.name)', 'ANN'],
  ['lower("ABC")', 'abc'],
  ['round(record.price)', 10],
  ['round(1.23456, 3)', 1.235],
  ['sum(state.items)', 6.5],
  ['sum(1, 2, 3)', 6],
  ['if(state.count > 1, "many", "few")', 'many'],
  ['if(false, 1)', undefined],
  ['fmtDate(record.created)', '2024-01-02'],
  ["fmtDate(record.created, 'yyyy/MM/dd HH:mm')", '2024/01/02 08:30'],
  ['[1, 2, state.count]', [1, 2, 3]],
  ['widgets.input1.value', 'hello'],
  ['params.id', '42'],
  ['1e3', 1000],
  ['.5 + .5', 1],
  ['true ?.5 : 1', 0.5],
];

const bad: [string, string][] = [
  ['', 'parse'],
  ['1 +', 'parse'],
  ['(1', 'parse'],
  ['1 2', 'parse'],
  ["'open", 'parse'],
  ['a = 1', 'parse'],
  ['window', 'name'],
  ['globalThis.process', 'name'],
  ['this', 'name'],
  ['eval("1")', 'call'],
  ['Function("return 1")()', 'forbidden'],
  ['user.name.constructor', 'forbidden'],
  ['user.__proto__', 'forbidden'],
  ["user['__proto__']", 'forbidden'],
  ["user['con' + 'structor']", 'forbidden'],
  ['state.items.constructor.constructor("return process")()', 'forbidden'],
  ['user.name.toString()', 'forbidden'],
  ['user.prototype', 'forbidden'],
  ['1 / 0', 'type'],
  ['"a" * 2', 'type'],
  ['user < 1', 'type'],
  ['-"x"', 'type'],
  ['`x`', 'parse'],
  ['x => 1', 'parse'],
  ['#', 'parse'],
  ['if(1)', 'call'],
];

describe('evaluate', () => {
  it.each(ok)('%s', (src, expected) => {
    const r = evaluate(src, scope);
    expect(r).toEqual({ ok: true, value: expected });
  });

  it.each(bad)('refuses %s', (src, code) => {
    const r = evaluate(src, scope);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(code);
  });

  it('does not read inherited or getter properties', () => {
    let called = false;
    const record = Object.create(
      { inherited: 1 },
      {
        g: {
          get() {
            called = true;
            return 1;
          },
          enumerable: true,
        },
      },
    );
    expect(evaluate('record.inherited', { record })).toEqual({ ok: true, value: undefined });
    expect(evaluate('record.g', { record })).toEqual({ ok: true, value: undefined });
    expect(called).toBe(false);
    expect(evaluate('record.toString', { record: {} })).toEqual({ ok: true, value: undefined });
    expect(evaluate('record.f', { record: { f: () => 1 } })).toEqual({ ok: true, value: undefined });
  });

  it('never throws on non-text input', () => {
    for (const v of [null, undefined, 1, {}, [], Symbol('x')]) expect(evaluate(v).ok).toBe(false);
  });
});

describe('limits (hostile inputs)', () => {
  it('refuses over-long source', () => {
    const r = evaluate(`${'1+'.repeat(5000)}1`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('limit');
  });
  it('refuses deep nesting without a stack overflow', () => {
    const r = evaluate(`${'('.repeat(400)}1${')'.repeat(400)}`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('limit');
    const r2 = evaluate(`${'!'.repeat(600)}true`);
    expect(r2.ok).toBe(false);
  });
  it('caps text growth', () => {
    const big = 'x'.repeat(60_000);
    const r = evaluate('state.s + state.s', { state: { s: big } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('limit');
  });
  it('caps steps', () => {
    const src = Array.from({ length: 400 }, () => '[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]').join(
      '+',
    );
    expect(evaluate(src).ok).toBe(false);
  });
});

describe('templates and bindings', () => {
  it('fills {{ }} segments', () => {
    expect(renderTemplate('Hi {{ user.name }}, you have {{ state.count * 2 }} items', scope)).toBe(
      'Hi Ann, you have 6 items',
    );
  });
  it('renders failing and empty segments as empty text', () => {
    expect(renderTemplate('a{{ window.x }}b{{ state.nil }}c', scope)).toBe('abc');
  });
  it('leaves plain text alone', () => {
    expect(renderTemplate('no braces <b>', scope)).toBe('no braces <b>');
  });
  it('resolves $expr bindings', () => {
    expect(resolveValue({ $expr: 'state.count + 1' }, scope)).toBe(4);
    expect(resolveValue({ $expr: 'oops(' }, scope)).toBeUndefined();
    expect(resolveValue(5, scope)).toBe(5);
  });
  it('resolves all props of a widget', () => {
    expect(
      resolveProps({ text: 'Hi {{ user.name }}', size: { $expr: 'state.count * 10' }, n: 1 }, scope),
    ).toEqual({
      text: 'Hi Ann',
      size: 30,
      n: 1,
    });
  });
});

describe('pluck', () => {
  const lines: ExprScope = { state: { lines: [{ amount: 2, n: 'a' }, { amount: 3.5 }, null, 'x'] } };
  it('takes one field of each row, and sums with sum()', () => {
    expect(evaluate("pluck(state.lines, 'amount')", lines)).toEqual({
      ok: true,
      value: [2, 3.5, null, null],
    });
    expect(evaluate("sum(pluck(state.lines, 'n'))", { state: { lines: [{ n: 1 }, { n: '2' }] } })).toEqual({
      ok: true,
      value: 3,
    });
    expect(evaluate("pluck(state.none, 'amount')", lines)).toEqual({ ok: true, value: [] });
    expect(evaluate("pluck(state.lines, '__proto__')", lines)).toEqual({
      ok: true,
      value: [null, null, null, null],
    });
  });
});
