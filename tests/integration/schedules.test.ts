/**
 * Scheduled tasks: the six calls, bad input and the quota (nothing changed), who may call them, and
 * the engine: exactly once per fire with several engines on one database, missed fires logged (not
 * run late), disabling stops the next fire on every engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduleEngine } from '../../src/server/schedule/engine.ts';
import { runTask } from '../../src/server/schedule/run-task.ts';
import { seedMember, seedProject, seedRole, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { snapshot } from '../helpers/state.ts';

const dialects = await testDialects();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Task {
  _id: string;
  _name: string;
  _cron: string;
  _flow: string;
  enabled: boolean;
  next: number | null;
}
interface LogItem {
  time: number;
  state: string;
  result: string | null;
  run: string | null;
}

describe.each(dialects)('schedules on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let pid: string;
  let trialPid: string;
  let otherPid: string;
  let logs: string;
  let flow: string;
  let inputFlow: string;
  let draftFlow: string;
  let otherFlow: string;
  let trialFlow: string;
  const engines: ScheduleEngine[] = [];

  const api = <T = unknown>(path: string, body?: unknown, token = owner.token, p = pid) =>
    call<T>(t.app, body === undefined ? 'GET' : 'POST', `/api/admin/schedule/${p}${path}`, {
      token,
      ...(body === undefined ? {} : { body }),
    });
  const admin = <T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown) =>
    call<T>(t.app, method, `/api/admin${path}`, {
      token: owner.token,
      ...(body === undefined ? {} : { body }),
    });
  const program = async (p: string, process: unknown[], release = true) => {
    const f = await admin<{ _id: string }>('POST', `/flow/${p}/create`, { name: 'P', _process: process });
    expect(f.error, f.msg).toBe(0);
    if (release) expect((await admin('POST', `/flow/${p}/${f.data._id}/release`, {})).error).toBe(0);
    return f.data._id;
  };
  const logRows = async () =>
    (
      await admin<{ data: unknown[]; size: number }>('POST', `/data/${pid}/${logs}/query`, {
        page: { index: 1, size: 1000 },
      })
    ).data.data.length;
  const fires = (task: string) =>
    t.app.database.db
      .selectFrom('schedule_fires')
      .selectAll()
      .where('task_id', '=', task)
      .orderBy('fire_time')
      .execute();
  const engine = async (opts: { graceMs?: number } = {}) => {
    const e = new ScheduleEngine(t.app.database, {
      run: (id) => runTask(t.app, id),
      pollMs: 150,
      node: `test-${engines.length}`,
      ...opts,
    });
    engines.push(e);
    await e.start();
    return e;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    trialPid = (await seedProject(t.app, owner.id, { tier: 0 })).id;
    otherPid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    logs = (await admin<{ _id: string }>('POST', `/project/${pid}/entity/create`, { name: 'Ticks' })).data
      ._id;
    expect(
      (await admin('POST', `/project/${pid}/${logs}/field/create`, { name: 'n', field: 'n', type: 'string' }))
        .error,
    ).toBe(0);
    flow = await program(pid, [
      { _type: 'create', _handle: 'c', _entity: logs, _procedure: { values: { n: "'tick'" } } },
      { _type: 'return', _handle: 'r', _procedure: { value: "'done'" } },
    ]);
    inputFlow = await program(pid, [
      { _type: 'input', _handle: 'i', _procedure: { fields: [{ key: 'a', name: 'A', type: 'string' }] } },
    ]);
    draftFlow = await program(pid, [], false);
    otherFlow = await program(otherPid, []);
    trialFlow = await program(trialPid, []);
  });
  afterAll(async () => {
    for (const e of engines) await e.stop();
    await t?.close();
  });

  it('set, list (schedule and job), update, toggle, log and remove', async () => {
    const set = await api<Task>('/set', {
      flow,
      cron: '0 30 8 * * ?',
      name: 'Morning report',
      option: { term: 'day', time: '08:30' },
    });
    expect(set.error, set.msg).toBe(0);
    expect(set.data).toMatchObject({
      _name: 'Morning report',
      _cron: '0 30 8 * * ? *',
      _flow: flow,
      enabled: true,
    });
    // 08:30 Beijing is 00:30 UTC.
    expect(new Date(set.data.next!).toISOString()).toMatch(/T00:30:00\.000Z$/);
    const id = set.data._id;
    const list = await api<{ list: Task[]; used: number; quota: number | null }>('/schedule');
    expect(list.data.list.map((x) => x._id)).toContain(id);
    expect(list.data).toMatchObject({ used: 1, quota: null });
    expect((await api<{ list: Task[] }>('/schedule?name=morning')).data.list).toHaveLength(1);
    expect((await api<{ list: Task[] }>('/schedule?name=evening')).data.list).toHaveLength(0);
    expect((await api<{ list: Task[] }>('/schedule?name=%25')).data.list).toHaveLength(0);
    const jobs = await api<{ list: (Task & { last: unknown })[] }>('/job');
    expect(jobs.data.list).toEqual([expect.objectContaining({ _id: id, last: null })]);

    const upd = await api<Task>(`/${id}/update`, { name: 'Evening report', cron: '0 0 20 ? * MON,FRI *' });
    expect(upd.data).toMatchObject({ _name: 'Evening report', _cron: '0 0 20 ? * MON,FRI *' });
    const off = await api<Task>(`/${id}/toggle`);
    expect(off.data).toMatchObject({ enabled: false, next: null });
    expect((await api<{ list: Task[] }>('/job')).data.list).toHaveLength(0);
    expect((await api<Task>(`/${id}/toggle`)).data.enabled).toBe(true);
    const log = await api<{ data: LogItem[]; size: number }>(`/${id}/log`, { page: { index: 1, size: 20 } });
    expect(log.data).toEqual({ data: [], size: 0 });
    expect((await api(`/${id}/remove`)).error).toBe(0);
    expect((await api(`/${id}/toggle`)).error).toBe(1900);
    expect((await api<{ list: Task[] }>('/schedule')).data.list).toHaveLength(0);
  });

  it('refuses bad input with a coded error and changes nothing', async () => {
    const ok = await api<Task>('/set', { flow, cron: '0 0 9 * * ? *', name: 'Keep' });
    const id = ok.data._id;
    const before = await snapshot(t.app);
    const cases: [string, unknown, number][] = [
      ['/set', { flow, cron: 'every day', name: 'x' }, 1901],
      ['/set', { flow, cron: '0 0 25 * * ? *', name: 'x' }, 1901],
      ['/set', { flow, cron: '0 0 0 30 2 ? *', name: 'x' }, 1902],
      ['/set', { flow, cron: '0 0 0 1 1 ? 2020', name: 'x' }, 1902],
      ['/set', { flow: inputFlow, cron: '0 0 9 * * ? *', name: 'x' }, 1903],
      ['/set', { flow: draftFlow, cron: '0 0 9 * * ? *', name: 'x' }, 1906],
      ['/set', { flow: otherFlow, cron: '0 0 9 * * ? *', name: 'x' }, 1905],
      ['/set', { flow: 'nope', cron: '0 0 9 * * ? *', name: 'x' }, 1905],
      ['/set', { flow, cron: '0 0 9 * * ? *', name: '   ' }, 1908],
      ['/set', { flow, cron: '0 0 9 * * ? *' }, 1000],
      ['/set', { flow, cron: '0 0 9 * * ? *', name: 'x'.repeat(129) }, 1000],
      ['/set', { flow, cron: 'x'.repeat(201), name: 'x' }, 1000],
      ['/set', { flow, cron: '0 0 9 * * ? *', name: 'x', option: 'no' }, 1000],
      [`/${id}/update`, { cron: '61 * * * * ? *' }, 1901],
      [`/${id}/update`, { flow: otherFlow }, 1905],
      [`/${id}/update`, { flow: inputFlow }, 1903],
      [`/${id}/update`, {}, 1000],
      [`/${id}/log`, { page: { index: 0 } }, 1000],
      ['/ffffffffffffffffffffffff/update', { name: 'x' }, 1900],
    ];
    for (const [path, body, code] of cases) {
      const r = await api(path, body);
      expect([path, JSON.stringify(body).slice(0, 60), r.error]).toEqual([
        path,
        JSON.stringify(body).slice(0, 60),
        code,
      ]);
    }
    expect((await api('/tasks')).error).toBe(1907);
    expect((await api('/../x/remove')).error).not.toBe(0);
    // Another project's task is not found from this project.
    expect((await api(`/${id}/remove`, undefined, owner.token, otherPid)).error).toBe(1900);
    expect((await api(`/${id}/toggle`, undefined, owner.token, otherPid)).error).toBe(1900);
    expect(await snapshot(t.app)).toBe(before);
    await api(`/${id}/remove`);
  });

  it("caps enabled tasks by the tier's quota with the spec's message", async () => {
    const a = await api<Task>(
      '/set',
      { flow: trialFlow, cron: '0 0 9 * * ? *', name: 'A' },
      owner.token,
      trialPid,
    );
    expect(a.error, a.msg).toBe(0);
    const before = await snapshot(t.app);
    const b = await api('/set', { flow: trialFlow, cron: '0 0 9 * * ? *', name: 'B' }, owner.token, trialPid);
    expect(b.error).toBe(1904);
    expect(b.msg).toMatch(/the number of simultaneously running tasks has reached the version limit/);
    expect(await snapshot(t.app)).toBe(before);
    // A disabled task leaves room; enabling it again when the room is taken is refused.
    expect((await api(`/${a.data._id}/toggle`, undefined, owner.token, trialPid)).error).toBe(0);
    const c = await api<Task>(
      '/set',
      { flow: trialFlow, cron: '0 0 9 * * ? *', name: 'C' },
      owner.token,
      trialPid,
    );
    expect(c.error).toBe(0);
    expect((await api(`/${a.data._id}/toggle`, undefined, owner.token, trialPid)).error).toBe(1904);
    const list = await api<{ used: number; quota: number }>('/schedule', undefined, owner.token, trialPid);
    expect(list.data).toMatchObject({ used: 1, quota: 1 });
  });

  it('only builders of the project may call', async () => {
    const task = (await api<Task>('/set', { flow, cron: '0 0 9 * * ? *', name: 'Guarded' })).data._id;
    const member = await seedUser(t.app);
    await seedMember(
      t.app,
      pid,
      member.id,
      'common',
      await seedRole(t.app, pid, 'common', { program: [flow] }),
    );
    const builder = await seedUser(t.app);
    await seedMember(t.app, pid, builder.id, 'admin', await seedRole(t.app, pid, 'admin'));
    const stranger = await seedUser(t.app);
    const calls: [string, unknown][] = [
      ['/set', { flow, cron: '0 0 9 * * ? *', name: 'x' }],
      [`/${task}/update`, { name: 'x' }],
      ['/schedule', undefined],
      ['/job', undefined],
      [`/${task}/toggle`, undefined],
      [`/${task}/log`, {}],
      [`/${task}/remove`, undefined],
    ];
    const before = await snapshot(t.app);
    for (const [path, body] of calls) {
      expect((await api(path, body, member.token)).error, path).toBe(1102);
      expect((await api(path, body, stranger.token)).error, path).toBe(1201);
      expect((await api(path, body, '')).error, path).toBe(1100);
    }
    expect(await snapshot(t.app)).toBe(before);
    expect((await api('/schedule', undefined, builder.token)).error).toBe(0);
    expect((await api(`/${task}/remove`, undefined, builder.token)).error).toBe(0);
  });

  it('runs each fire exactly once with three engines on one database, through the program run log', async () => {
    const runsBefore = await logRows();
    const a = await engine();
    await engine();
    await engine();
    const set = await api<Task>('/set', { flow, cron: '* * * * * ? *', name: 'Every second' });
    a.changed();
    await sleep(4500);
    await api(`/${set.data._id}/toggle`);
    await sleep(1200);
    const rows = await fires(set.data._id);
    const done = rows.filter((r) => r.state === 'success');
    expect(done.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.state === 'success')).toBe(true);
    // One row per fire time (the primary key), each fire a distinct second, one program run each.
    expect(new Set(rows.map((r) => Number(r.fire_time))).size).toBe(rows.length);
    expect(rows.every((r) => Number(r.fire_time) % 1000 === 0)).toBe(true);
    expect((await logRows()) - runsBefore).toBe(done.length);
    const runs = await t.app.database.db
      .selectFrom('program_runs')
      .select(['id', 'trigger', 'status'])
      .where('flow_id', '=', flow)
      .where('trigger', '=', 'schedule')
      .execute();
    expect(runs.length).toBe(done.length);
    expect(new Set(runs.map((r) => r.id))).toEqual(new Set(done.map((r) => r.run_id)));
    const log = await api<{ data: LogItem[]; size: number }>(`/${set.data._id}/log`, { page: { index: 1 } });
    expect(log.data.size).toBe(rows.length);
    expect(log.data.data[0]).toMatchObject({ state: 'success', result: '"done"' });
    // Disabled on one process: no engine fires it again.
    const after = rows.length;
    await sleep(1500);
    expect((await fires(set.data._id)).length).toBe(after);
    for (const e of engines.splice(0)) await e.stop();
  });

  it('logs a fire missed while no engine ran as missed, once, and does not run it late', async () => {
    const set = await api<Task>('/set', { flow, cron: '*/2 * * * * ? *', name: 'Missed' });
    const id = set.data._id;
    // The task was armed a minute ago and nothing ran since: every fire in between was missed.
    const now = Date.now();
    await t.app.database.db
      .updateTable('schedules')
      .set({ armed_at: now - 60_000 })
      .where('id', '=', id)
      .execute();
    const runsBefore = await logRows();
    await engine();
    await engine();
    await sleep(2500);
    for (const e of engines.splice(0)) await e.stop();
    const rows = await fires(id);
    const missed = rows.filter((r) => r.state === 'missed');
    expect(missed).toHaveLength(1);
    expect(missed[0]!.result).toMatch(/missed (29|30|31) fires from/);
    const ran = rows.filter((r) => r.state === 'success');
    // Not a burst: at most the fires due since the engines started.
    expect(ran.length).toBeLessThanOrEqual(2);
    expect((await logRows()) - runsBefore).toBe(ran.length);
    expect(Number(ran[0]?.fire_time ?? now)).toBeGreaterThanOrEqual(now - 5000);
    // A fire whose program fails is logged as fail with the reason.
    await api(`/${id}/remove`);
  });

  it('skips (and logs as skipped) the fires of a system whose schedules are switched off', async () => {
    const set = await api<Task>('/set', { flow, cron: '* * * * * ? *', name: 'Switched off' });
    const id = set.data._id;
    const features = (value: Record<string, boolean>) =>
      call(t.app, 'POST', `/api/app/share/${pid}/config/project/features`, {
        token: owner.token,
        body: { value },
      });
    expect((await features({ schedule: false })).error).toBe(0);
    // A process reads the switch at most once a second (run-task.ts): fires within a second of the
    // switch may still see it on (from the previous test's fires).
    const settled = Date.now() + 1000;
    await sleep(1000);
    const runsBefore = await logRows();
    await engine();
    await sleep(2300);
    // The last fire may still be running (outcomes are written in batches): the finished ones. A fire
    // the engine reached late (a loaded machine stalls it) is logged missed, not skipped: never run either.
    const off = (await fires(id)).filter(
      (r) => r.state !== 'running' && r.state !== 'missed' && Number(r.fire_time) >= settled,
    );
    expect(off.length).toBeGreaterThan(0);
    expect(off.every((r) => r.state === 'skipped')).toBe(true);
    expect(off[0]!.result).toMatch(/switched off/);
    expect(off.every((r) => r.run_id === null)).toBe(true);
    // Nothing ran: no program run, no record.
    expect(await logRows()).toBe(runsBefore);
    // Switched on again, the next fires run.
    expect((await features({ schedule: true })).error).toBe(0);
    await sleep(2300);
    for (const e of engines.splice(0)) await e.stop();
    const after = (await fires(id)).filter((r) => Number(r.fire_time) > Number(off.at(-1)!.fire_time));
    expect(after.some((r) => r.state === 'success')).toBe(true);
    expect(await logRows()).toBeGreaterThan(runsBefore);
    await call(t.app, 'GET', `/api/admin/schedule/${pid}/${id}/remove`, { token: owner.token });
  });

  it('logs a failing run as fail with its reason', async () => {
    const bad = await program(pid, [
      { _type: 'set', _handle: 's', _procedure: { value: 'nosuchfunction(1)' } },
    ]);
    const set = await api<Task>('/set', { flow: bad, cron: '* * * * * ? *', name: 'Fails' });
    await engine();
    await sleep(2300);
    for (const e of engines.splice(0)) await e.stop();
    const log = await api<{ data: LogItem[] }>(`/${set.data._id}/log`, {});
    expect(log.data.data.length).toBeGreaterThan(0);
    expect(log.data.data[0]).toMatchObject({ state: 'fail' });
    expect(log.data.data[0]!.result).toMatch(/^1803 /);
    await api(`/${set.data._id}/remove`);
  });
});
