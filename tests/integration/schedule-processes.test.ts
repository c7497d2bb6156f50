/**
 * Scheduled tasks across real server processes: three `src/server/main.ts` processes on one
 * PostgreSQL schema with Redis, as a deployment runs them (the bundle, `node main.js`). Tasks firing
 * every second are created through the API; 200 fires later, each fire has run exactly once (one fire row, one program
 * run, one record written by the program, no second in a task's span left out), and disabling or
 * removing a task through another process stops its next fire on all three.
 *
 * Needs TEST_DATABASE_URL and TEST_REDIS_URL (as CI sets them); skipped without them.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/server/account/service.ts';
import { seedProject, seedUser } from '../helpers/access.ts';
import { call } from '../helpers/app.ts';
import { createRealtimeEnv, type RealtimeEnv, spawnServer } from '../helpers/realtime.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const root = path.resolve(import.meta.dirname, '../..');
/** The processes run the server as production does, `node main.js` of the bundle, built privately. */
const build = path.join(root, 'dist', `test-sched-${process.pid}`);

/** Tasks firing every second (4 in 5 of program A); 200 fires of A take about 10 s. */
const TASKS = 25;
const FIRES = 200;

interface Answer<T> {
  error: number;
  msg?: string;
  data: T;
}

describe.skipIf(!pgUrl || !redisUrl)('scheduled tasks on three server processes (PostgreSQL + Redis)', () => {
  let env: RealtimeEnv;
  let app: FastifyInstance;
  let token: string;
  let pid: string;
  let ticks: string;
  let flowA: string;
  let flowB: string;
  const procs: { proc: ChildProcess; base: string }[] = [];

  const http = async <T>(n: number, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${procs[n]!.base}/api/admin/schedule/${pid}${path}`, {
      method,
      headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as Answer<T>;
  };
  const admin = async <T>(path: string, body: unknown) => {
    const r = await call<T>(app, 'POST', `/api/admin${path}`, { token, body });
    expect(r.error, r.msg).toBe(0);
    return r.data;
  };
  /** Fire rows of `tasks`, schedule runs of `program`, and the records the runs wrote (by their `n`). */
  const counts = async (tasks: string[], program: string, tag: string) => {
    const { db } = app.database;
    const fires = await db
      .selectFrom('schedule_fires')
      .select(['task_id', 'fire_time', 'state', 'run_id', 'node'])
      .where('task_id', 'in', tasks)
      .execute();
    const runs = await db
      .selectFrom('program_runs')
      .select(['id'])
      .where('flow_id', '=', program)
      .where('trigger', '=', 'schedule')
      .execute();
    const rows = await call<{ data: { n: string }[] }>(app, 'POST', `/api/admin/data/${pid}/${ticks}/query`, {
      token,
      body: { page: { index: 1, size: 5000 } },
    });
    expect(rows.error, rows.msg).toBe(0);
    return { fires, runs, records: rows.data.data.filter((r) => r.n === tag).length };
  };
  const program = async (tag: string) => {
    const f = await admin<{ _id: string }>(`/flow/${pid}/create`, {
      name: `Tick ${tag}`,
      _process: [
        { _type: 'create', _handle: 'c', _entity: ticks, _procedure: { values: { n: `'${tag}'` } } },
        { _type: 'return', _handle: 'r', _procedure: { value: "'done'" } },
      ],
    });
    await admin(`/flow/${pid}/${f._id}/release`, {});
    return f._id;
  };

  beforeAll(async () => {
    const built = promisify(execFile)(process.execPath, ['scripts/build-server.mjs', '--out', build], {
      cwd: root,
    });
    env = await createRealtimeEnv('postgres');
    app = (await env.start()).app;
    const owner = await seedUser(app);
    token = await createSession(app.database.db, owner.id);
    pid = (await seedProject(app, owner.id, { tier: 3 })).id;
    ticks = (await admin<{ _id: string }>(`/project/${pid}/entity/create`, { name: 'Ticks' }))._id;
    await admin(`/project/${pid}/${ticks}/field/create`, { name: 'n', field: 'n', type: 'string' });
    flowA = await program('a');
    flowB = await program('b');
    await built;
    // Three processes at once (they start in parallel, as a rolling deploy would).
    const started = await Promise.all(
      [0, 1, 2].map(() =>
        spawnServer(
          env.config,
          { REDIS_URL: redisUrl!, LOG_LEVEL: 'error' },
          path.join(build, 'main.js'),
          120_000,
        ),
      ),
    );
    for (const s of started) procs.push({ proc: s.proc, base: `http://127.0.0.1:${s.port}` });
    // A few seconds on a quiet machine; the limits leave room for a loaded one.
  }, 180_000);

  afterAll(async () => {
    await Promise.all(
      procs.map(
        ({ proc }) =>
          new Promise<void>((resolve) => {
            if (proc.exitCode !== null) return resolve();
            proc.once('exit', () => resolve());
            proc.kill('SIGTERM');
            setTimeout(() => proc.kill('SIGKILL'), 8000).unref();
          }),
      ),
    );
    await env?.cleanup();
    fs.rmSync(build, { recursive: true, force: true });
  }, 30_000);

  it('runs 200 fires exactly once each; disabling or removing a task stops it on every process', async () => {
    // Tasks of program A are disabled at the end, tasks of program B removed. Created through the
    // API of the seeding app (no engine there): the processes find them by their poll.
    const made = await Promise.all(
      Array.from({ length: TASKS }, async (_, i) => {
        const removed = i % 5 === 4;
        const r = await call<{ _id: string }>(app, 'POST', `/api/admin/schedule/${pid}/set`, {
          token,
          body: { flow: removed ? flowB : flowA, cron: '* * * * * ? *', name: `tick ${i}` },
        });
        expect(r.error, r.msg).toBe(0);
        return { id: r.data._id, removed };
      }),
    );
    const a = made.filter((t) => !t.removed).map((t) => t.id);
    const b = made.filter((t) => t.removed).map((t) => t.id);
    const deadline = Date.now() + 40_000;
    let done = 0;
    while (Date.now() < deadline) {
      await sleep(500);
      const { fires } = await counts(a, flowA, 'a');
      done = fires.filter((f) => f.state === 'success').length;
      if (done >= FIRES) break;
    }
    expect(done).toBeGreaterThanOrEqual(FIRES);

    // A disabled through the first process, B removed through the second, at once: each tells the
    // others over Redis, and the claim itself checks the task is still enabled.
    const stops = await Promise.all([
      ...a.map((id) => http(0, 'GET', `/${id}/toggle`)),
      ...b.map((id) => http(1, 'GET', `/${id}/remove`)),
    ]);
    const stoppedAt = Date.now();
    expect(stops.map((r) => r.error)).toEqual(stops.map(() => 0));
    // Fires claimed before the stop landed still run (a loaded machine may hold a backlog): wait until
    // every fire row of A has its outcome, then nothing more may happen on any process.
    let atStopA = await counts(a, flowA, 'a');
    for (let i = 0; i < 40 && atStopA.fires.some((f) => f.state === 'running'); i++) {
      await sleep(500);
      atStopA = await counts(a, flowA, 'a');
    }
    await sleep(1000);
    atStopA = await counts(a, flowA, 'a');
    const atStopB = await counts(b, flowB, 'b');
    await sleep(2500);
    const endA = await counts(a, flowA, 'a');
    const endB = await counts(b, flowB, 'b');
    // No fire claimed after the stop: no fire time past it, and no new row or run since.
    expect(Math.max(...endA.fires.map((f) => Number(f.fire_time)))).toBeLessThanOrEqual(stoppedAt);
    expect(endA.fires.length).toBe(atStopA.fires.length);
    expect(endA.runs.length).toBe(atStopA.runs.length);
    expect(endB.runs.length).toBe(atStopB.runs.length);
    expect(endB.records).toBe(atStopB.records);
    // Removed: their log went with them; each of their runs wrote its one record.
    expect(endB.fires).toEqual([]);
    expect(endB.runs.length).toBeGreaterThan(0);
    expect(endB.records).toBe(endB.runs.length);

    // Exactly once: one row per (task, second); each fire that ran has one program run and one
    // record. A fire every process reached more than 5 s late (a stalled machine) is logged missed
    // instead, without a run: then the row is `missed` and counts the seconds since the last row.
    const { fires, runs, records } = endA;
    const ran = fires.filter((f) => f.state === 'success');
    expect(ran.length).toBeGreaterThanOrEqual(FIRES);
    expect(fires.filter((f) => f.state !== 'success' && f.state !== 'missed')).toEqual([]);
    expect(new Set(fires.map((f) => `${f.task_id}@${f.fire_time}`)).size).toBe(fires.length);
    expect(runs.length).toBe(ran.length);
    expect(new Set(ran.map((f) => f.run_id))).toEqual(new Set(runs.map((r) => r.id)));
    expect(records).toBe(ran.length);
    // None lost: each task has a row for every second from its first to its last, or a missed row
    // closing the gap.
    for (const id of a) {
      const rows = fires
        .filter((f) => f.task_id === id)
        .sort((x, y) => Number(x.fire_time) - Number(y.fire_time));
      expect(rows.length, id).toBeGreaterThan(0);
      expect(rows.every((f) => Number(f.fire_time) % 1000 === 0)).toBe(true);
      for (let i = 1; i < rows.length; i++)
        if (Number(rows[i]!.fire_time) - Number(rows[i - 1]!.fire_time) !== 1000)
          expect(rows[i]!.state, `${id} gap before ${rows[i]!.fire_time}`).toBe('missed');
    }
    // The work was shared: more than one process won claims.
    expect(new Set(fires.map((f) => f.node)).size).toBeGreaterThan(1);
    // About 25 s on a quiet machine; the limit leaves room for a loaded one.
  }, 120_000);
});
