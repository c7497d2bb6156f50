/**
 * The editor's test run of a record trigger: the builder names a write (create, update of a picked
 * row with edited values, remove of a picked row); the write is made in the rolled-back run, the
 * program gets its `params.op`, `params.old`, `params.new` (and `record`) as a real trigger does, the
 * answer shows the write, and nothing stays. Malformed trigger tests get coded errors and run nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Row {
  _id: string;
  [k: string]: unknown;
}
interface Result {
  status: string;
  output: unknown;
  changes: { step: string; op: string; id: string; before: Row | null; after: Row | null }[];
  trace: { step: string; type: string; error?: string; data?: string }[];
  trigger?: { op: string; entity: string; id: string; old: Row | null; new: Row | null };
  error?: { code: number; msg: string; step: string | null };
}

describe.each(dialects)('test runs of record triggers on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let pid: string;
  let orders: string;
  let logs: string;
  let apples: Row;
  let trig: string;

  const admin = <T = unknown>(path: string, body?: unknown) =>
    call<T>(t.app, body === undefined ? 'GET' : 'POST', `/api/admin${path}`, {
      token: owner.token,
      ...(body === undefined ? {} : { body }),
    });
  const rows = async (entity: string) =>
    (await admin<{ data: Row[] }>(`/data/${pid}/${entity}/query`, { page: { index: 1, size: 100 } })).data
      .data;
  const table = async (name: string, fields: [string, string][]) => {
    const e = (await admin<{ _id: string }>(`/project/${pid}/entity/create`, { name })).data._id;
    for (const [code, type] of fields)
      expect(
        (await admin(`/project/${pid}/${e}/field/create`, { name: code, field: code, type })).error,
      ).toBe(0);
    return e;
  };
  const test = (id: string, body: Record<string, unknown>) => admin<Result>(`/flow/${pid}/${id}/test`, body);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    orders = await table('Orders', [
      ['name', 'string'],
      ['amount', 'number'],
      ['status', 'string'],
    ]);
    logs = await table('Logs', [
      ['msg', 'string'],
      ['total', 'number'],
    ]);
    apples = (await admin<Row>(`/data/${pid}/${orders}/save`, { name: 'Apples', amount: 5, status: 'new' }))
      .data;
    // Logs each write with the amount's change, and stamps the row it runs on (record).
    const f = await admin<{ _id: string }>(`/flow/${pid}/create`, {
      name: 'Audit',
      _process: [
        {
          _type: 'create',
          _handle: 'log',
          _entity: logs,
          _procedure: {
            values: {
              msg: "params.op + ' ' + (params.new ? params.new.name : params.old.name)",
              total: '(params.new ? params.new.amount : 0) - (params.old ? params.old.amount : 0)',
            },
          },
        },
        {
          _type: 'condition',
          _handle: 'alive',
          _procedure: {
            if: "params.op != 'remove'",
            yes: [
              {
                _type: 'update',
                _handle: 'stamp',
                _entity: orders,
                _procedure: { id: 'record._id', values: { status: "'audited ' + params.op" } },
              },
            ],
          },
        },
        { _type: 'return', _handle: 'ret', _procedure: { value: '[params.op, record.name]' } },
      ],
      _option: { _entity: orders, trigger: { on: ['create', 'update', 'remove'] } },
    });
    expect(f.error, f.msg).toBe(0);
    trig = f.data._id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an update of a picked row with edited values: old and new as a trigger gets them, nothing kept', async () => {
    const ordersBefore = await rows(orders);
    const logsBefore = await rows(logs);
    const r = await test(trig, { trigger: { op: 'update', record: apples._id, values: { amount: 8 } } });
    expect(r.error, r.msg).toBe(0);
    expect(r.data.status).toBe('rolled-back');
    expect(r.data.error).toBeUndefined();
    expect(r.data.trigger).toMatchObject({
      op: 'update',
      entity: orders,
      id: apples._id,
      old: { _id: apples._id, name: 'Apples', amount: 5, status: 'new' },
      new: { _id: apples._id, name: 'Apples', amount: 8, status: 'new' },
    });
    expect(r.data.output).toEqual(['update', 'Apples']);
    const log = r.data.changes.find((c) => c.step === 'log');
    expect(log?.after).toMatchObject({ msg: 'update Apples', total: 3 });
    // The program's own update of the row it runs on works on the row as the write left it.
    const stamp = r.data.changes.find((c) => c.step === 'stamp');
    expect(stamp?.before).toMatchObject({ amount: 8, status: 'new' });
    expect(stamp?.after).toMatchObject({ amount: 8, status: 'audited update' });
    expect(await rows(orders)).toEqual(ordersBefore);
    expect(await rows(logs)).toEqual(logsBefore);
    // The run log keeps the trigger's input.
    const runs = await admin<{ trigger: string; status: string; input: Record<string, unknown> }[]>(
      `/flow/${pid}/${trig}/runs`,
    );
    expect(runs.data[0]).toMatchObject({
      trigger: 'test',
      status: 'rolled-back',
      input: { op: 'update', old: { amount: 5 }, new: { amount: 8 } },
    });
  });

  it('a create runs on the new row (which exists in the run), a remove on the old one', async () => {
    const c = await test(trig, { trigger: { op: 'create', values: { name: 'Plums', amount: 2 } } });
    expect(c.error, c.msg).toBe(0);
    expect(c.data.trigger).toMatchObject({ op: 'create', old: null, new: { name: 'Plums', amount: 2 } });
    expect(c.data.changes.find((x) => x.step === 'stamp')?.after).toMatchObject({
      name: 'Plums',
      status: 'audited create',
    });
    const d = await test(trig, { trigger: { op: 'remove', record: apples._id } });
    expect(d.error, d.msg).toBe(0);
    expect(d.data.trigger).toMatchObject({ op: 'remove', new: null, old: { name: 'Apples', amount: 5 } });
    expect(d.data.output).toEqual(['remove', 'Apples']);
    expect(d.data.changes.find((x) => x.step === 'log')?.after).toMatchObject({ total: -5 });
    expect((await rows(orders)).map((o) => o.name)).toEqual(['Apples']);
    expect(await rows(logs)).toEqual([]);
  });

  it('a failing step answers the failure with the trigger write shown, and nothing stays', async () => {
    const guard = await admin<{ _id: string }>(`/flow/${pid}/create`, {
      name: 'Guard',
      _process: [
        {
          _type: 'condition',
          _handle: 'neg',
          _procedure: {
            if: 'params.new.amount < params.old.amount',
            yes: [
              {
                _type: 'update',
                _handle: 'missing',
                _entity: orders,
                _procedure: { id: "'0123456789abcdef01234567'", values: { status: "'x'" } },
              },
            ],
          },
        },
      ],
      _option: { _entity: orders, trigger: { on: ['update'] } },
    });
    expect(guard.error, guard.msg).toBe(0);
    const ok = await test(guard.data._id, {
      trigger: { op: 'update', record: apples._id, values: { amount: 9 } },
    });
    expect(ok.data.error).toBeUndefined();
    const r = await test(guard.data._id, {
      trigger: { op: 'update', record: apples._id, values: { amount: 1 } },
    });
    expect(r.error).toBe(0);
    expect(r.data.status).toBe('failed');
    expect(r.data.error).toMatchObject({ code: 1803, step: 'missing' });
    expect(r.data.trigger).toMatchObject({ op: 'update', old: { amount: 5 }, new: { amount: 1 } });
    expect((await rows(orders)).map((o) => o.amount)).toEqual([5]);
  });

  it('malformed trigger tests are refused with coded errors and run nothing', async () => {
    const runsBefore = (await admin<unknown[]>(`/flow/${pid}/${trig}/runs`)).data.length;
    const cases: [unknown, number, string][] = [
      [{ op: 'drop', record: apples._id }, 2060, 'op'],
      ['update', 2060, 'trigger'],
      [{ op: 'update', record: apples._id, extra: 1 }, 2060, 'extra'],
      [{ op: 'update' }, 2060, 'record'],
      [{ op: 'update', record: 'nope' }, 2060, 'record'],
      [{ op: 'create', record: apples._id }, 2060, 'record'],
      [{ op: 'remove', record: apples._id, values: { amount: 1 } }, 2060, 'values'],
      [{ op: 'update', record: apples._id, values: [1] }, 2060, 'values'],
      // The write itself refuses values that do not fit the table, and a row not in it.
      [{ op: 'update', record: apples._id, values: { amount: 'many' } }, 2060, 'amount'],
      [{ op: 'update', record: apples._id, values: { nofield: 1 } }, 2060, 'nofield'],
      [{ op: 'update', record: '0123456789abcdef01234567' }, 2060, 'record'],
    ];
    for (const [trigger, code, says] of cases) {
      const r = await test(trig, { trigger });
      expect(r.error, JSON.stringify(trigger)).toBe(code);
      expect(r.msg, JSON.stringify(trigger)).toContain(says);
    }
    // Both a record to run on and a trigger write: the trigger's row is the record.
    expect(
      (await test(trig, { record: apples._id, trigger: { op: 'remove', record: apples._id } })).error,
    ).toBe(2060);
    // A program that is not a trigger, or not for this kind of write; one with no table.
    const plain = await admin<{ _id: string }>(`/flow/${pid}/create`, {
      name: 'Plain',
      _process: [],
      _option: { _entity: orders },
    });
    expect((await test(plain.data._id, { trigger: { op: 'remove', record: apples._id } })).error).toBe(2061);
    const onlyCreate = await admin<{ _id: string }>(`/flow/${pid}/create`, {
      name: 'OnCreate',
      _process: [],
      _option: { _entity: orders, trigger: { on: ['create'] } },
    });
    const wrongOp = await test(onlyCreate.data._id, { trigger: { op: 'remove', record: apples._id } });
    expect(wrongOp.error).toBe(2061);
    expect(wrongOp.msg).toContain('not after remove');
    const noTable = await admin<{ _id: string }>(`/flow/${pid}/create`, { name: 'NoTable', _process: [] });
    expect((await test(noTable.data._id, { trigger: { op: 'create' } })).error).toBe(2041);
    // Nothing ran, nothing changed.
    expect((await admin<unknown[]>(`/flow/${pid}/${trig}/runs`)).data.length).toBe(runsBefore);
    expect((await rows(orders)).map((o) => [o.name, o.amount, o.status])).toEqual([['Apples', 5, 'new']]);
  });

  it('another project’s row cannot be the trigger’s row', async () => {
    const other = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    const e = (await admin<{ _id: string }>(`/project/${other}/entity/create`, { name: 'Foreign' })).data._id;
    await admin(`/project/${other}/${e}/field/create`, { name: 'name', field: 'name', type: 'string' });
    const foreign = (await admin<Row>(`/data/${other}/${e}/save`, { name: 'F' })).data;
    const r = await test(trig, { trigger: { op: 'remove', record: foreign._id } });
    expect(r.error).toBe(2060);
    expect(
      (await admin<{ data: Row[] }>(`/data/${other}/${e}/query`, { page: { index: 1, size: 10 } })).data.data,
    ).toHaveLength(1);
  });
});
