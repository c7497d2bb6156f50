import { describe, expect, it } from 'vitest';
import { type ActionHost, allowed, type ModalRequest, runActions, snapModalWidth } from './actions.ts';

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
