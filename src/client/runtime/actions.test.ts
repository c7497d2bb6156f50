import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import eventsSchema from '../../../schemas/events.schema.json' with { type: 'json' };
import {
  ACTIONS,
  type ActionHost,
  type ActionType,
  allowed,
  type ModalRequest,
  runActions,
  snapModalWidth,
} from './actions.ts';

/** A host recording what actions asked for; scope is live, so setValue shows to later actions. */
function recorder(over: Partial<ActionHost> = {}) {
  const log: unknown[][] = [];
  const state: Record<string, unknown> = { count: 1 };
  const values: Record<string, unknown> = {};
  const host: ActionHost = {
    scope: () => ({
      user: { name: 'Ann' },
      params: { id: 'p1' },
      state: { ...state },
      widgets: { ...values },
    }),
    openPage: (...a) => void log.push(['openPage', ...a]),
    openModal: (req: ModalRequest) => void log.push(['openModal', req]),
    closeModal: (r) => void log.push(['closeModal', r]),
    navigate: (...a) => void log.push(['navigate', ...a]),
    runProgram: async (...a) => void log.push(['runProgram', ...a]),
    refreshWidget: (w) => void log.push(['refreshWidget', w]),
    setValue: (target, value) => {
      log.push(['setValue', target, value]);
      if (target.startsWith('state.')) state[target.slice(6)] = value;
      else values[target] = value;
    },
    submitForm: async (...a) => void log.push(['submitForm', ...a]),
    notify: (...a) => void log.push(['notify', ...a]),
    runCode: async (c) => void log.push(['runCode', c]),
    print: (req) => void log.push(['print', req]),
    ...over,
  };
  return { host, log, state };
}

describe('modal widths', () => {
  it('snap to the nearest of 339, 535, 600, 810, 900', () => {
    expect(snapModalWidth(300)).toBe(339);
    expect(snapModalWidth(500)).toBe(535);
    expect(snapModalWidth(580)).toBe(600);
    expect(snapModalWidth(700)).toBe(600);
    expect(snapModalWidth(760)).toBe(810);
    expect(snapModalWidth(2000)).toBe(900);
    expect(snapModalWidth(undefined)).toBe(600);
  });
});

describe('runActions', () => {
  it('runs actions in order; later actions see what earlier ones set', async () => {
    const { host, log } = recorder();
    const r = await runActions(
      [
        { type: 'setValue', target: 'state.count', value: { $expr: 'state.count + 1' } },
        { type: 'notify', message: 'count {{ state.count }} for {{ user.name }}' },
        {
          type: 'openModal',
          page: 'detail',
          params: { id: { $expr: 'record._id' } },
          width: 820,
          title: 'T',
        },
      ],
      host,
      { extra: { record: { _id: 'r9' } } },
    );
    expect(r).toEqual({ ran: 3, skipped: 0 });
    expect(log).toEqual([
      ['setValue', 'state.count', 2],
      ['notify', 'success', 'count 2 for Ann', undefined],
      ['openModal', { page: 'detail', params: { id: 'r9' }, title: 'T', width: 810 }],
    ]);
  });

  it('skips an action whose when is false', async () => {
    const { host, log } = recorder();
    const r = await runActions(
      [
        { type: 'navigate', url: '/home', when: { $expr: 'state.count > 5' } },
        { type: 'navigate', url: '/home', when: { $expr: 'state.count == 1' } },
      ],
      host,
    );
    expect(r).toEqual({ ran: 1, skipped: 1 });
    expect(log).toEqual([['navigate', '/home', false]]);
  });

  it('a failing action stops the list and shows an error notice with the code', async () => {
    const fail = Object.assign(new Error('program not found'), { code: 1003 });
    const { host, log } = recorder({
      runProgram: async () => {
        throw fail;
      },
    });
    const r = await runActions(
      [
        { type: 'runProgram', program: 'flow1', params: { id: { $expr: 'params.id' } } },
        { type: 'notify', message: 'after' },
      ],
      host,
    );
    expect(r.error).toEqual({ index: 0, message: '1003: program not found' });
    expect(log).toEqual([['notify', 'error', '1003: program not found']]);
  });

  it('refuses unsafe navigation and unknown actions', async () => {
    const { host, log } = recorder();
    const r = await runActions([{ type: 'navigate', url: 'javascript:alert(1)' }], host);
    expect(r.error?.message).toMatch(/unsafe/);
    const r2 = await runActions([{ type: 'explode' }], host);
    expect(r2.error?.message).toMatch(/unknown action/);
    expect(log.filter((l) => l[0] === 'navigate')).toEqual([]);
  });

  it('a failing code command is reported once; quiet runs report nothing and answer the error', async () => {
    const { host, log } = recorder();
    host.runCode = async () => {
      throw new Error('navigate: unsafe or empty URL');
    };
    const r = await runActions([{ type: 'runCode', code: 'x' }], host);
    expect(r.error?.message).toBe('navigate: unsafe or empty URL');
    expect(log.filter((l) => l[0] === 'notify')).toEqual([
      ['notify', 'error', 'navigate: unsafe or empty URL'],
    ]);
    const q = await runActions([{ type: 'explode' }], host, { quiet: true });
    expect(q.error?.message).toMatch(/unknown action/);
    expect(log.filter((l) => l[0] === 'notify')).toHaveLength(1);
  });

  it('hands a form event payload to submitForm and passes the others through', async () => {
    const { host, log } = recorder();
    await runActions(
      [
        { type: 'submitForm', form: 'f1' },
        { type: 'refreshWidget', widget: 't1' },
        { type: 'closeModal', result: { $expr: 'params.id' } },
        { type: 'openPage', page: 'p2', target: 'blank' },
        { type: 'runCode', code: 'api.notify(1)' },
      ],
      host,
      { payload: { name: 'x' } },
    );
    expect(log).toEqual([
      ['submitForm', 'f1', { name: 'x' }],
      ['refreshWidget', 't1'],
      ['closeModal', 'p1'],
      ['openPage', 'p2', {}, 'blank'],
      ['runCode', 'api.notify(1)'],
    ]);
  });

  it('when: absent allows, bindings decide', () => {
    expect(allowed(undefined, {})).toBe(true);
    expect(allowed({ $expr: 'state.x' }, { state: { x: 0 } })).toBe(false);
    expect(allowed({ $expr: 'state.x' }, { state: { x: 2 } })).toBe(true);
  });
});

/** One run of one action: what it is given, and what the host saw (or the error that stopped it). */
interface Case {
  name: string;
  action: Record<string, unknown>;
  payload?: unknown;
  extra?: Record<string, unknown>;
  host?: Partial<ActionHost>;
  log?: unknown[][];
  error?: RegExp;
}

// Typed by the registry: an action type without cases here does not compile.
const CASES: Record<ActionType, Case[]> = {
  openPage: [
    {
      name: 'resolves params, opens here by default',
      action: { type: 'openPage', page: 'p2', params: { id: { $expr: 'params.id' }, n: 1 } },
      log: [['openPage', 'p2', { id: 'p1', n: 1 }, 'self']],
    },
    {
      name: 'blank opens a new window',
      action: { type: 'openPage', page: 'p2', target: 'blank' },
      log: [['openPage', 'p2', {}, 'blank']],
    },
    { name: 'a missing page stops', action: { type: 'openPage' }, error: /openPage: page is missing/ },
  ],
  openModal: [
    {
      name: 'snaps the width, resolves the title and params',
      action: {
        type: 'openModal',
        page: 'd',
        title: '{{ user.name }}',
        width: 330,
        params: { r: { $expr: 'record._id' } },
      },
      extra: { record: { _id: 'r1' } },
      log: [['openModal', { page: 'd', params: { r: 'r1' }, title: 'Ann', width: 339 }]],
    },
    {
      name: 'single replaces the stack; no title, default width',
      action: { type: 'openModal', page: 'd', single: true },
      log: [['openModal', { page: 'd', params: {}, width: 600, single: true }]],
    },
    { name: 'a missing page stops', action: { type: 'openModal', page: '' }, error: /page is missing/ },
  ],
  closeModal: [
    {
      name: 'hands back the resolved result',
      action: { type: 'closeModal', result: { $expr: 'state.count + 1' } },
      log: [['closeModal', 2]],
    },
    {
      name: 'no result closes with undefined',
      action: { type: 'closeModal' },
      log: [['closeModal', undefined]],
    },
  ],
  navigate: [
    {
      name: 'a bound safe URL, replacing history',
      action: { type: 'navigate', url: { $expr: '"/page/" + params.id' }, replace: true },
      log: [['navigate', '/page/p1', true]],
    },
    {
      name: 'a javascript: URL from a binding is refused',
      action: { type: 'navigate', url: { $expr: '"javascript:alert(1)"' } },
      error: /unsafe or empty URL/,
    },
    { name: 'an empty URL is refused', action: { type: 'navigate', url: '' }, error: /unsafe or empty URL/ },
  ],
  runProgram: [
    {
      name: 'runs with resolved params',
      action: { type: 'runProgram', program: 'flow1', params: { who: { $expr: 'user.name' } } },
      log: [['runProgram', 'flow1', { who: 'Ann' }]],
    },
    {
      name: "the program's coded error stops, with its code",
      action: { type: 'runProgram', program: 'flow1' },
      host: {
        runProgram: async () => {
          throw Object.assign(new Error('denied'), { code: 1201 });
        },
      },
      error: /^1201: denied$/,
    },
  ],
  refreshWidget: [
    {
      name: 'reloads the widget',
      action: { type: 'refreshWidget', widget: 't1' },
      log: [['refreshWidget', 't1']],
    },
    { name: 'a missing widget stops', action: { type: 'refreshWidget' }, error: /widget is missing/ },
  ],
  setValue: [
    {
      name: 'sets a state variable from a binding',
      action: { type: 'setValue', target: 'state.count', value: { $expr: 'state.count * 10' } },
      log: [['setValue', 'state.count', 10]],
    },
    {
      name: 'sets a widget to a literal',
      action: { type: 'setValue', target: 'name', value: { a: 1 } },
      log: [['setValue', 'name', { a: 1 }]],
    },
    { name: 'a missing target stops', action: { type: 'setValue', value: 1 }, error: /target is missing/ },
  ],
  submitForm: [
    {
      name: "hands over the form event's values",
      action: { type: 'submitForm', form: 'f1' },
      payload: { name: 'x' },
      log: [['submitForm', 'f1', { name: 'x' }]],
    },
    {
      name: 'a payload that is not a record is not handed over',
      action: { type: 'submitForm', form: 'f1' },
      payload: ['x'],
      log: [['submitForm', 'f1', undefined]],
    },
    { name: 'a missing form stops', action: { type: 'submitForm' }, error: /form is missing/ },
  ],
  notify: [
    {
      name: 'level, bound title and message',
      action: {
        type: 'notify',
        level: 'warning',
        title: '{{ user.name }}',
        message: { $expr: 'state.count' },
      },
      log: [['notify', 'warning', '1', 'Ann']],
    },
    {
      name: 'an unknown level is success; an object message shows as JSON',
      action: { type: 'notify', level: 'loud', message: { $expr: 'params' } },
      log: [['notify', 'success', '{"id":"p1"}', undefined]],
    },
  ],
  runCode: [
    {
      name: 'runs the code',
      action: { type: 'runCode', code: 'api.notify(1)' },
      log: [['runCode', 'api.notify(1)']],
    },
    { name: 'code that is not text stops', action: { type: 'runCode', code: 1 }, error: /code is missing/ },
  ],
  print: [
    {
      name: 'resolves the title and rows, keeps copies and columns',
      action: {
        type: 'print',
        title: '{{ user.name }}',
        data: { $expr: 'record' },
        copies: 2,
        columns: 3,
      },
      extra: { record: [{ a: 1 }, { a: 2 }] },
      log: [['print', { option: { title: 'Ann', data: [{ a: 1 }, { a: 2 }], copies: 2, columns: 3 } }]],
    },
    {
      name: 'a record prints as a form through a template',
      action: { type: 'print', data: { $expr: 'params' }, template: 'tpl' },
      log: [['print', { option: { data: { id: 'p1' } }, template: 'tpl' }]],
    },
    {
      name: 'a host that cannot print stops',
      action: { type: 'print' },
      host: { print: undefined },
      error: /print: not available/,
    },
  ],
};

describe('each action', () => {
  const rows = Object.entries(CASES).flatMap(([type, cases]) => cases.map((c) => [type, c.name, c] as const));
  it.each(rows)('%s: %s', async (type, _name, c) => {
    expect(c.action.type).toBe(type);
    const { host, log } = recorder(c.host);
    const r = await runActions([c.action], host, { payload: c.payload, extra: c.extra, quiet: true });
    if (c.error) {
      expect(r.error?.message).toMatch(c.error);
      expect(log).toEqual([]);
    } else {
      expect(r).toEqual({ ran: 1, skipped: 0 });
      expect(log).toEqual(c.log);
    }
  });

  it('every registered action has a success case and the cases name only registered actions', () => {
    expect(Object.keys(CASES).sort()).toEqual(ACTIONS.map((a) => a.type).sort());
    for (const a of ACTIONS)
      expect(
        CASES[a.type].some((c) => c.log),
        a.type,
      ).toBe(true);
  });
});

describe('the action registry', () => {
  const kebab = (t: string) => t.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const schemaTypes = eventsSchema.definitions.action.oneOf.map((b) => b.properties.type.const);

  it('registers each type once, and exactly the types events.schema.json accepts', () => {
    const types = ACTIONS.map((a) => a.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual([...schemaTypes].sort());
  });

  it('has one file per action, named after its type, and every such file registered', () => {
    const dir = new URL('./actions/', import.meta.url);
    const own = new Set(['define.ts', 'host.ts', 'registry.ts']);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !own.has(f))
      .sort();
    expect(files).toEqual(ACTIONS.map((a) => `${kebab(a.type)}.ts`).sort());
  });
});
