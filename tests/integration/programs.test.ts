/**
 * Programs: flows stored and validated, every step type, one transaction per run (rollback on a
 * failing step), test runs that change nothing, limits, the run log, and who may call what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMember, seedProject, seedRole, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Row {
  _id: string;
  [k: string]: unknown;
}
interface Flow {
  _id: string;
  _version: number | null;
  _process: unknown[];
}
interface Result {
  status: string;
  output: unknown;
  display: { step: string; message?: string; rows?: Row[] }[];
  changes: { step: string; op: string; id: string; before: Row | null; after: Row | null }[];
  entities: string[];
  trace: { step: string; type: string; error?: string; data?: string }[];
  error?: { code: number; msg: string; step: string | null };
}

describe.each(dialects)('programs on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let pid: string;
  let otherPid: string;
  let orders: string;
  let logs: string;
  let otherTable: string;

  const admin = <T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown, token = owner.token) =>
    call<T>(t.app, method, `/api/admin${path}`, { token, ...(body === undefined ? {} : { body }) });
  const flows = <T = Flow>(path: string, body?: unknown, token = owner.token, p = pid) =>
    call<T>(t.app, body === undefined ? 'GET' : 'POST', `/api/admin/flow/${p}${path}`, {
      token,
      ...(body === undefined ? {} : { body }),
    });
  const rows = async (entity: string) =>
    (await admin<{ data: Row[] }>('POST', `/data/${pid}/${entity}/query`, { page: { index: 1, size: 100 } }))
      .data.data;
  const table = async (p: string, name: string, fields: [string, string, boolean?][]) => {
    const e = (await admin<{ _id: string }>('POST', `/project/${p}/entity/create`, { name })).data._id;
    for (const [code, type, hide] of fields) {
      const r = await admin('POST', `/project/${p}/${e}/field/create`, {
        name: code,
        field: code,
        type,
        hide,
      });
      expect(r.error).toBe(0);
    }
    return e;
  };
  const order = async (name: string, amount: number, status = 'new') =>
    (await admin<Row>('POST', `/data/${pid}/${orders}/save`, { name, amount, status, secret: `s-${name}` }))
      .data;
  const make = async (process: unknown[], option: Record<string, unknown> = {}) => {
    const r = await flows('/create', { name: 'P', _process: process, _option: option });
    expect(r.error, r.msg).toBe(0);
    return r.data;
  };
  const test = async (id: string, body: Record<string, unknown> = {}) => {
    const r = await flows<Result>(`/${id}/test`, body);
    expect(r.error, r.msg).toBe(0);
    return r.data;
  };
  const exec = (id: string, body: Record<string, unknown> = {}, token = owner.token, p = pid) =>
    call<Result & { changed: number }>(t.app, 'POST', `/api/common/program/${p}/exec/${id}/k1`, {
      token,
      body,
    });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    otherPid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    orders = await table(pid, 'Orders', [
      ['name', 'string'],
      ['amount', 'number'],
      ['status', 'string'],
      ['secret', 'string', true],
    ]);
    logs = await table(pid, 'Logs', [
      ['msg', 'string'],
      ['total', 'number'],
    ]);
    otherTable = await table(otherPid, 'Foreign', [['x', 'string']]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores, lists, renames, moves, releases and restores flows', async () => {
    const mod = (await admin<{ _id: string }>('POST', `/project/${pid}/module/create`, { name: 'Sales' }))
      .data._id;
    const f = await make([{ _type: 'set', _handle: 'a', _procedure: { value: '1' } }]);
    expect(f._version).toBeNull();
    const upd = await flows(`/${f._id}/update`, { name: 'Renamed', module: mod, sort: 3 });
    expect(upd.error).toBe(0);
    const list = await admin<(Flow & { _name: string; _module: string })[]>('GET', `/project/${pid}/flow`);
    expect(list.data.find((x) => x._id === f._id)).toMatchObject({ _name: 'Renamed', _module: mod });
    const mods = await admin<{ _id: string; _flow: string[] }[]>('GET', `/project/${pid}/module`);
    expect(mods.data.find((m) => m._id === mod)?._flow).toContain(f._id);
    const rel = await flows(`/${f._id}/release`, {});
    expect(rel.data._version).toBe(1);
    await flows(`/${f._id}/update`, { _process: [] });
    expect((await flows(`/${f._id}/release`, {})).data._version).toBe(2);
    const versions = await flows<{ version: number }[]>(`/${f._id}/versions`);
    expect(versions.data.map((v) => v.version)).toEqual([2, 1]);
    const restored = await flows(`/${f._id}/restore`, { version: 1 });
    expect(restored.data._process).toHaveLength(1);
    expect((await flows(`/${f._id}/restore`, { version: 9 })).error).toBe(1806);
    expect((await flows(`/${f._id}/remove`)).error).toBe(0);
    expect((await flows(`/${f._id}`)).error).toBe(1800);
  });

  it('every step type round-trips through save and load', async () => {
    const process = [
      {
        _type: 'input',
        _handle: 'form',
        _procedure: { fields: [{ key: 'note', name: 'Note', type: 'string', required: false }] },
      },
      {
        _type: 'query',
        _handle: 'q',
        _entity: orders,
        _procedure: { size: 5, where: { field: 'status', opt: 'eq', value: 'new' } },
      },
      { _type: 'create', _handle: 'c', _entity: logs, _procedure: { values: { msg: "'x'" } } },
      { _type: 'update', _handle: 'u', _entity: logs, _procedure: { id: 'state.c', values: { msg: "'y'" } } },
      { _type: 'remove', _handle: 'r', _entity: logs, _procedure: { id: 'state.c._id' } },
      { _type: 'set', _handle: 's', _procedure: { name: 'v', value: '1 + 1' } },
      {
        _type: 'condition',
        _handle: 'cond',
        _procedure: {
          if: 'state.v == 2',
          yes: [{ _type: 'display', _handle: 'd1', _procedure: { message: 'two' } }],
          no: [],
        },
      },
      {
        _type: 'loop',
        _handle: 'l',
        _procedure: {
          over: 'state.q',
          as: 'o',
          steps: [{ _type: 'set', _handle: 's2', _procedure: { value: 'state.o.amount' } }],
        },
      },
      { _type: 'notify', _handle: 'n', _procedure: { message: 'hi {{user.nickname}}', users: '[user._id]' } },
      { _type: 'display', _handle: 'd2', _procedure: { rows: 'state.q', fields: ['name'] } },
      { _type: 'return', _handle: 'ret', _procedure: { value: 'state.v' } },
    ];
    const f = await make(process);
    const got = (await flows(`/${f._id}`)).data;
    expect(got._process).toEqual(
      process.map((s) =>
        s._type === 'loop' || s._type === 'condition' || s._type === 'query' || s._type === 'input'
          ? expect.objectContaining({ _type: s._type, _handle: s._handle })
          : s,
      ),
    );
    // The test run goes through every type and changes nothing.
    const before = await rows(logs);
    const r = await test(f._id);
    expect(r.status).toBe('rolled-back');
    expect(r.output).toBe(2);
    expect(r.trace.map((x) => x.type)).toEqual(
      expect.arrayContaining([
        'input',
        'query',
        'create',
        'update',
        'remove',
        'set',
        'condition',
        'loop',
        'notify',
        'display',
        'return',
      ]),
    );
    expect(r.error).toBeUndefined();
    expect(r.changes.map((c) => c.op)).toEqual(['create', 'update', 'remove']);
    expect(await rows(logs)).toEqual(before);
  });

  it('exec commits every write of a run together; a failing step rolls all of them back', async () => {
    await order('A', 10);
    await order('B', 20);
    const paid = await make([
      {
        _type: 'query',
        _handle: 'q',
        _entity: orders,
        _procedure: { where: { field: 'status', opt: 'eq', value: 'new' } },
      },
      { _type: 'set', _handle: 'total', _procedure: { value: '0' } },
      {
        _type: 'loop',
        _handle: 'each',
        _procedure: {
          over: 'state.q',
          steps: [
            {
              _type: 'update',
              _handle: 'u',
              _entity: orders,
              _procedure: { id: 'state.item._id', values: { status: "'paid'" } },
            },
            {
              _type: 'set',
              _handle: 'acc',
              _procedure: { name: 'total', value: 'state.total + state.item.amount' },
            },
          ],
        },
      },
      {
        _type: 'create',
        _handle: 'log',
        _entity: logs,
        _procedure: { values: { msg: "'paid ' + len(state.q)", total: 'state.total' } },
      },
      { _type: 'display', _handle: 'show', _procedure: { message: 'paid {{state.total}}' } },
    ]);
    await flows(`/${paid._id}/release`, {});
    // Test run first: the trace says what would change, the table is untouched.
    const dry = await test(paid._id);
    expect(dry.changes.filter((c) => c.op === 'update').map((c) => c.after?.status)).toEqual([
      'paid',
      'paid',
    ]);
    expect((await rows(orders)).every((o) => o.status === 'new')).toBe(true);
    const r = await exec(paid._id);
    expect(r.error, r.msg).toBe(0);
    expect(r.data.display[0]?.message).toBe('paid 30');
    expect(r.data.entities.sort()).toEqual([orders, logs].sort());
    expect((await rows(orders)).map((o) => o.status)).toEqual(['paid', 'paid']);
    expect((await rows(logs)).map((l) => [l.msg, l.total])).toEqual([['paid 2', 30]]);

    // A run whose last step fails leaves no trace of its earlier writes.
    await order('C', 5);
    const broken = await make([
      {
        _type: 'query',
        _handle: 'q',
        _entity: orders,
        _procedure: { where: { field: 'status', opt: 'eq', value: 'new' } },
      },
      {
        _type: 'update',
        _handle: 'u',
        _entity: orders,
        _procedure: { id: 'state.q[0]._id', values: { status: "'done'" } },
      },
      { _type: 'create', _handle: 'log', _entity: logs, _procedure: { values: { msg: "'ok'" } } },
      {
        _type: 'update',
        _handle: 'bad',
        _entity: orders,
        _procedure: { id: "'0123456789abcdef01234567'", values: { status: "'x'" } },
      },
    ]);
    await flows(`/${broken._id}/release`, {});
    const before = { o: await rows(orders), l: await rows(logs) };
    const f = await exec(broken._id);
    expect(f.error).toBe(1803);
    expect(f.msg).toContain('bad');
    expect({ o: await rows(orders), l: await rows(logs) }).toEqual(before);
    // A value the table refuses fails its step the same way.
    const wrongType = await make([
      { _type: 'create', _handle: 'log', _entity: logs, _procedure: { values: { msg: "'ok'" } } },
      { _type: 'create', _handle: 'bad', _entity: logs, _procedure: { values: { total: "'not a number'" } } },
    ]);
    await flows(`/${wrongType._id}/release`, {});
    const w = await exec(wrongType._id);
    expect(w.error).toBe(1803);
    expect(w.msg).toContain('total');
    expect(await rows(logs)).toEqual(before.l);
    // The run log has both: who, how, and the step that failed.
    const log = await flows<
      { status: string; errorStep: string | null; errorCode: number | null; trigger: string }[]
    >(`/${broken._id}/runs`);
    expect(log.data[0]).toMatchObject({
      status: 'failed',
      errorStep: 'bad',
      errorCode: 1803,
      trigger: 'exec',
    });
    const ok = await flows<{ status: string; trace: unknown[] }[]>(`/${paid._id}/runs`);
    expect(ok.data.map((x) => x.status)).toEqual(['ok', 'rolled-back']);
    expect(ok.data[0]!.trace.length).toBeGreaterThan(3);
  });

  it('input is checked on the server; the record the program runs on; hidden fields stay hidden', async () => {
    const o = await order('D', 7);
    const f = await make(
      [
        {
          _type: 'input',
          _handle: 'form',
          _procedure: {
            fields: [
              { key: 'qty', name: 'Qty', type: 'number', required: true },
              { key: 'kind', name: 'Kind', type: 'select', options: ['a', 'b'] },
            ],
          },
        },
        {
          _type: 'update',
          _handle: 'u',
          _entity: orders,
          _procedure: { id: 'record._id', values: { amount: 'record.amount * params.qty' } },
        },
        { _type: 'display', _handle: 'd', _procedure: { rows: '[state.u]' } },
        { _type: 'return', _handle: 'ret', _procedure: { value: 'state.u' } },
      ],
      { _entity: orders },
    );
    await flows(`/${f._id}/release`, {});
    const prep = await call<{ input: { key: string }[] }>(
      t.app,
      'POST',
      `/api/common/program/${pid}/prepare/${f._id}/k`,
      {
        token: owner.token,
        body: {},
      },
    );
    expect(prep.data.input.map((x) => x.key)).toEqual(['qty', 'kind']);
    expect((await exec(f._id, { record: o._id, data: {} })).error).toBe(1805);
    expect((await exec(f._id, { record: o._id, data: { qty: 'x' } })).error).toBe(1805);
    expect((await exec(f._id, { record: o._id, data: { qty: 2, kind: 'z' } })).error).toBe(1805);
    const r = await exec(f._id, { record: o._id, data: { qty: 3, kind: 'a' } });
    expect(r.error, r.msg).toBe(0);
    expect((r.data.output as Row).amount).toBe(21);
    expect((r.data.output as Row).secret).toBeUndefined();
    expect(r.data.display[0]?.rows?.[0]?.secret).toBeUndefined();
    expect((await exec(f._id, { record: '0123456789abcdef01234567', data: { qty: 1 } })).error).toBe(1406);
  });

  it('limits: loops, executed steps, and answers are bounded with coded errors, changing nothing', async () => {
    const before = await rows(logs);
    // 20 × 20 × 20 loop bodies: more steps executed than a run may take.
    const nested = await make([
      { _type: 'create', _handle: 'c', _entity: logs, _procedure: { values: { msg: "'x'" } } },
      {
        _type: 'set',
        _handle: 'ten',
        _procedure: { value: '[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]' },
      },
      {
        _type: 'loop',
        _handle: 'a',
        _procedure: {
          over: 'state.ten',
          as: 'i',
          steps: [
            {
              _type: 'loop',
              _handle: 'b',
              _procedure: {
                over: 'state.ten',
                as: 'j',
                steps: [
                  {
                    _type: 'loop',
                    _handle: 'c2',
                    _procedure: {
                      over: 'state.ten',
                      as: 'k',
                      steps: [{ _type: 'set', _handle: 'z', _procedure: { value: '1' } }],
                    },
                  },
                ],
              },
            },
          ],
        },
      },
    ]);
    const r = await test(nested._id);
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe(1804);
    await flows(`/${nested._id}/release`, {});
    expect((await exec(nested._id)).error).toBe(1804);
    expect(await rows(logs)).toEqual(before);
  });

  it('bad flow documents are refused with 1801 naming the path, and change nothing', async () => {
    const f = await make([]);
    const bad: [unknown, string][] = [
      [[{ _type: 'nope', _handle: 'a', _procedure: {} }], '_process[0]._type'],
      [[{ _type: 'set', _handle: '1a', _procedure: { value: '1' } }], '_process[0]._handle'],
      [[{ _type: 'set', _handle: 'a', _procedure: { value: '1 +' } }], '_process[0]._procedure.value'],
      [[{ _type: 'set', _handle: 'a', _procedure: { value: '1', extra: 1 } }], '_process[0]._procedure'],
      [
        [
          { _type: 'set', _handle: 'a', _procedure: { value: '1' } },
          { _type: 'set', _handle: 'a', _procedure: { value: '1' } },
        ],
        '_process[1]._handle',
      ],
      [[{ _type: 'create', _handle: 'a', _procedure: { values: {} } }], '_process[0]._entity'],
      [[{ _type: 'create', _handle: 'a', _entity: otherTable, _procedure: { values: {} } }], '_entity'],
      [
        [
          {
            _type: 'condition',
            _handle: 'a',
            _procedure: { if: 'true', yes: [{ _type: 'input', _handle: 'b', _procedure: { fields: [] } }] },
          },
        ],
        '_process[0]._procedure.yes[0]',
      ],
      [['x'], '_process[0]'],
    ];
    for (const [process, path] of bad) {
      const r = await flows(`/${f._id}/update`, { _process: process });
      expect(r.error, JSON.stringify(process)).toBe(1801);
      expect(r.msg).toContain(path);
    }
    // Too deep a nesting.
    let deep: unknown = { _type: 'set', _handle: 'x0', _procedure: { value: '1' } };
    for (let i = 1; i < 12; i++)
      deep = { _type: 'condition', _handle: `x${i}`, _procedure: { if: 'true', yes: [deep] } };
    expect((await flows(`/${f._id}/update`, { _process: [deep] })).error).toBe(1801);
    expect((await flows(`/${f._id}`)).data._process).toEqual([]);
    // Another project's flow is not found, for its owner too, through this project's path.
    const theirs = (await flows('/create', { name: 'T' }, owner.token, otherPid)).data._id;
    expect((await flows(`/${theirs}`)).error).toBe(1800);
    expect((await flows(`/${theirs}/update`, { name: 'x' })).error).toBe(1800);
    expect((await flows('/zzz')).error).toBe(1800);
    // Not released yet: end users cannot run it.
    expect((await exec(f._id)).error).toBe(1802);
  });

  it('who may call what: builders manage; members run only programs their role is granted', async () => {
    const f = await make([
      {
        _type: 'create',
        _handle: 'c',
        _entity: logs,
        _procedure: { values: { msg: "'by ' + user.nickname" } },
      },
    ]);
    await flows(`/${f._id}/release`, {});
    const granted = await seedRole(t.app, pid, 'common', { program: [f._id] });
    const plain = await seedRole(t.app, pid, 'common', {});
    const builderRole = await seedRole(t.app, pid, 'admin', {});
    const memberYes = await seedUser(t.app);
    const memberNo = await seedUser(t.app);
    const builder = await seedUser(t.app);
    const stranger = await seedUser(t.app);
    await seedMember(t.app, pid, memberYes.id, 'common', granted);
    await seedMember(t.app, pid, memberNo.id, 'common', plain);
    await seedMember(t.app, pid, builder.id, 'admin', builderRole);

    // Builder calls.
    expect((await flows(`/${f._id}`, undefined, builder.token)).error).toBe(0);
    expect((await flows(`/${f._id}`, undefined, memberYes.token)).error).toBe(1102);
    expect((await flows('/create', { name: 'x' }, memberYes.token)).error).toBe(1102);
    expect((await flows(`/${f._id}/test`, {}, memberYes.token)).error).toBe(1102);
    expect((await flows(`/${f._id}/release`, {}, stranger.token)).error).toBe(1201);
    expect((await call(t.app, 'GET', `/api/admin/flow/${pid}/${f._id}`)).error).toBe(1100);

    // End-user calls.
    const init = async (token: string) =>
      (await call<{ _id: string }[]>(t.app, 'GET', `/api/common/program/${pid}/init`, { token })).data.map(
        (x) => x._id,
      );
    expect(await init(memberYes.token)).toContain(f._id);
    expect(await init(memberNo.token)).not.toContain(f._id);
    const before = (await rows(logs)).length;
    expect((await exec(f._id, {}, memberNo.token)).error).toBe(1102);
    expect((await exec(f._id, {}, stranger.token)).error).toBe(1201);
    expect(
      (await call(t.app, 'POST', `/api/common/program/${pid}/exec/${f._id}/k`, { body: {} })).error,
    ).toBe(1100);
    expect((await rows(logs)).length).toBe(before);
    const ok = await exec(f._id, {}, memberYes.token);
    expect(ok.error, ok.msg).toBe(0);
    expect(ok.data.changed).toBe(1);
    expect((await exec(f._id, {}, builder.token)).error).toBe(0);
    expect((await rows(logs)).length).toBe(before + 2);
    // The program of another project through this project's path: not found.
    const theirs = (await flows('/create', { name: 'T' }, owner.token, otherPid)).data._id;
    await flows(`/${theirs}/release`, {}, owner.token, otherPid);
    expect((await exec(theirs, {}, memberYes.token)).error).toBe(1800);
    // Bad input to the run calls.
    expect((await exec(f._id, { data: 'x' } as never, memberYes.token)).error).toBe(1000);
    expect((await exec(f._id, { extra: 1 } as never, memberYes.token)).error).toBe(0);
  });
});
