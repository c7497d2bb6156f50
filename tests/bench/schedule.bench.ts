/**
 * bench:schedule — the schedule engine under load, on SQLite (BENCH_DB=postgres, or
 * BENCH_DATABASE_URL=postgres://…, for PostgreSQL).
 *
 * 1. Fires: 1,000 enabled tasks firing every second for BENCH_SECONDS (default 60), two engines on
 *    the same database claiming every fire. Fire lag = claim row written − fire time, for the winning
 *    claims. Duplicates = fire rows of one (task, time) won twice; lost = whole seconds inside the
 *    window with no row. The claimed "run" is a stand-in that answers success at once: this measures
 *    the scheduler, not programs. Baseline in the same run: a plain setTimeout loop that writes the
 *    same 1,000 rows per second with plain inserts (no claim, no cron), its lag measured the same way.
 * 2. Idle: 10,000 enabled tasks that fire once a year; CPU of the process over BENCH_IDLE_SECONDS
 *    (default 15) with the engine running, against the same process with no engine (baseline).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/index.ts';
import { createProject } from '../../src/server/project/service.ts';
import { ScheduleEngine } from '../../src/server/schedule/engine.ts';
import { newId } from '../../src/shared/id.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
const TASKS = Number(process.env.BENCH_TASKS ?? 1000);
const IDLE_TASKS = Number(process.env.BENCH_IDLE_TASKS ?? 10_000);
/** PostgreSQL with BENCH_DATABASE_URL=postgres://…, or BENCH_DB=postgres (TEST_DATABASE_URL or the local server). */
const url =
  process.env.BENCH_DATABASE_URL ||
  (process.env.BENCH_DB === 'postgres'
    ? process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'
    : undefined);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-bench-schedule-'));
const schema = url ? `bench_sched_${Date.now().toString(36)}` : undefined;
const database = await openDatabase(url ? { url, schema } : { file: path.join(dataDir, 'bench.db') });
const { db } = database;

async function seed(count: number, cron: string): Promise<string> {
  const now = Date.now();
  const owner = newId(now);
  await db
    .insertInto('users')
    .values({
      id: owner,
      account: `bench${owner.slice(-8)}`,
      phone: null,
      nickname: 'bench',
      pwd: 'x',
      status: 'active',
      avatar: null,
      parent_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const project = await createProject(db, owner, 'bench', { tier: 3 });
  const flow = newId();
  const doc = JSON.stringify({ _process: [], _option: {} });
  await db
    .insertInto('flows')
    .values({
      id: flow,
      project_id: project.id,
      module_id: null,
      type: 'program',
      name: 'noop',
      sort: 0,
      draft: doc,
      released: doc,
      released_version: 1,
      last_version: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(now + i),
    project_id: project.id,
    name: `t${i}`,
    cron,
    flow_id: flow,
    option: '{}',
    enabled: 1,
    created_by: null,
    created_at: now,
    updated_at: now,
    armed_at: now,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('schedules')
      .values(rows.slice(i, i + 500))
      .execute();
  return project.id;
}

async function firesPart() {
  const project = await seed(TASKS, '* * * * * ? *');
  const lags: number[] = [];
  let won = 0;
  let lostClaims = 0;
  const errors: string[] = [];
  const engines = [0, 1].map(
    (n) =>
      new ScheduleEngine(database, {
        node: `bench-${n}`,
        run: async () => ({ state: 'success', result: 'ok', runId: null }),
        onClaim: (c) => {
          if (c.won) {
            won += 1;
            lags.push(c.claimedAt - c.time);
          } else lostClaims += 1;
        },
        onError: (err, where) => errors.push(`${where}: ${(err as Error).message}`),
      }),
  );
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  for (const e of engines) await e.start();
  await sleep(SECONDS * 1000);
  for (const e of engines) await e.stop();
  const t1 = Date.now();
  const cpu = process.cpuUsage(cpu0);
  // Whole seconds fully inside the window (one second of margin each side).
  const from = Math.ceil(t0 / 1000) * 1000 + 1000;
  const to = Math.floor(t1 / 1000) * 1000 - 1000;
  const rows = await db
    .selectFrom('schedule_fires as f')
    .innerJoin('schedules as s', 's.id', 'f.task_id')
    .select(['f.task_id', 'f.fire_time', 'f.state'])
    .where('s.project_id', '=', project)
    .execute();
  const seen = new Map<string, number>();
  for (const r of rows) {
    const k = `${r.task_id}@${r.fire_time}`;
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  const duplicates = [...seen.values()].filter((n) => n > 1).length + Math.max(0, won - rows.length);
  const tasks = await db.selectFrom('schedules').select('id').where('project_id', '=', project).execute();
  let expected = 0;
  let lost = 0;
  let missed = 0;
  for (const r of rows) if (r.state === 'missed') missed += 1;
  for (const t of tasks)
    for (let s = from; s <= to; s += 1000) {
      expected += 1;
      if (!seen.has(`${t.id}@${s}`)) lost += 1;
    }
  return {
    lags,
    won,
    lostClaims,
    duplicates,
    expected,
    lost,
    missed,
    errors,
    cpuPct: ((cpu.user + cpu.system) / 1000 / (t1 - t0)) * 100,
  };
}

/** The same rows per second through plain inserts from a setTimeout loop: the floor for the lag. */
async function baselinePart() {
  await db.schema
    .createTable('bench_plain')
    .ifNotExists()
    .addColumn('task_id', 'varchar(24)')
    .addColumn('fire_time', 'bigint')
    .addColumn('written_at', 'bigint')
    .execute();
  const ids = Array.from({ length: TASKS }, () => newId());
  const lags: number[] = [];
  const end = Date.now() + Math.min(SECONDS, 20) * 1000;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const next = Math.floor(Date.now() / 1000) * 1000 + 1000;
      if (next > end) return resolve();
      setTimeout(async () => {
        await Promise.all(
          ids.map(async (id) => {
            await db
              .insertInto('bench_plain' as never)
              .values({ task_id: id, fire_time: next, written_at: Date.now() } as never)
              .execute();
            lags.push(Date.now() - next);
          }),
        );
        tick();
      }, next - Date.now());
    };
    tick();
  });
  return lags;
}

async function idlePart() {
  const measure = async () => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await sleep(IDLE_SECONDS * 1000);
    const c = process.cpuUsage(c0);
    return ((c.user + c.system) / 1000 / (performance.now() - t0)) * 100;
  };
  await db.deleteFrom('schedule_fires').execute();
  await db.deleteFrom('schedules').execute();
  await seed(IDLE_TASKS, '0 0 0 1 1 ? *');
  await sleep(1000);
  const base = await measure();
  const engine = new ScheduleEngine(database, {
    run: async () => ({ state: 'success', result: 'ok', runId: null }),
  });
  const b0 = performance.now();
  await engine.start();
  const boot = performance.now() - b0;
  await sleep(1000);
  const withEngine = await measure();
  const armed = engine.size;
  await engine.stop();
  return { base, withEngine, boot, armed };
}

const load = () => {
  const avg = os.loadavg().map((x) => x.toFixed(1));
  return `load average ${avg.join(' / ')} on ${os.cpus().length} cores`;
};
console.log(`bench:schedule on ${database.dialect}: ${TASKS} tasks every second for ${SECONDS} s, 2 engines`);
console.log(`  at the start: ${load()}`);
const f = await firesPart();
const p50 = pct(f.lags, 50);
const p99 = pct(f.lags, 99);
console.log(
  `fires: ${f.won} run, expected ${f.expected} in the window, lost ${f.lost}, duplicates ${f.duplicates}, ` +
    `logged missed ${f.missed}, claims lost to the other engine ${f.lostClaims}, errors ${f.errors.length}`,
);
if (f.errors.length) console.log(`  first error: ${f.errors[0]}`);
console.log(
  `fire lag: p50 ${p50} ms, p99 ${p99} ms, max ${pct(f.lags, 100)} ms; process CPU ${f.cpuPct.toFixed(1)} % of a core`,
);
const base = await baselinePart();
const b99 = pct(base, 99);
console.log(
  `baseline (setTimeout loop, plain inserts, same rows/s): lag p50 ${pct(base, 50)} ms, p99 ${b99} ms`,
);
console.log(`ratio fire lag p99 ours / baseline: ${(p99 / Math.max(1, b99)).toFixed(2)}×`);
const idle = await idlePart();
console.log(
  `idle: ${idle.armed} tasks armed in ${idle.boot.toFixed(0)} ms; CPU ${idle.withEngine.toFixed(2)} % of a core ` +
    `with the engine, ${idle.base.toFixed(2)} % without (baseline); difference ${(idle.withEngine - idle.base).toFixed(2)} points`,
);
console.log(`  at the end: ${load()}`);
await database.close();
if (url && schema) {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await c.end();
}
fs.rmSync(dataDir, { recursive: true, force: true });
