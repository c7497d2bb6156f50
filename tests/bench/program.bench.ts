/**
 * bench:program — programs on SQLite, everything measured in one run:
 * - a 10-step program (input, query 20 rows by filter, set, loop updating each and summing, condition,
 *   create a log row, display, return) over a 100,000-row table: exec over HTTP p50 (goal ≤ 15 ms), and
 *   the engine's time (runProgram in process) against the same queries hand-written with Kysely in one
 *   transaction (goal ≤ 1.3×);
 * - the code step (QuickJS): the first script of the process and warm scripts;
 * - 10,000 code scripts: RSS after them against where it settled (goal within 10 %);
 * - 100 concurrent execs over HTTP: no 5xx, none lost.
 * Figures and ratios are printed; nothing here is a pass/fail threshold. Beside wall time, each side's
 * CPU time (process.cpuUsage) is printed: on a loaded machine wall time mostly measures which side the
 * scheduler preempted, CPU time what each side costs. The statements each side sends are counted
 * (the SQLite connection's statement cache sees every one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { createSession, createUser } from '../../src/server/account/service.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { fieldColumn } from '../../src/server/data/ddl.ts';
import { loadMeta } from '../../src/server/data/meta.ts';
import { createEntity, createField } from '../../src/server/data/schema-service.ts';
import { statementCacheOf } from '../../src/server/db/sqlite-gate.ts';
import { runProgram } from '../../src/server/program/engine.ts';
import { codeRunner, runCode } from '../../src/server/program/quickjs.ts';
import { createFlow, findFlow, releasedDoc, releaseFlow } from '../../src/server/program/service.ts';
import { createProject } from '../../src/server/project/service.ts';
import { newId } from '../../src/shared/id.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BUCKETS = ROWS / 20;
const EXECS = Number(process.env.BENCH_EXECS ?? 300);
const CODE_RUNS = Number(process.env.BENCH_CODE_RUNS ?? 10_000);

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-bench-prog-'));
  const app = await buildApp(loadConfig({}, { dataDir, clientDir: path.join(dataDir, 'none') }), {
    logger: false,
  });
  const { db, dialect } = app.database;
  const any = db as unknown as AnyDb;
  const owner = await createUser(db, {
    account: 'benchprog1',
    phone: null,
    nickname: 'B',
    pwd: 'bench12345',
  });
  const token = await createSession(db, owner.id);
  const project = await createProject(db, owner.id, 'Bench', { tier: 3 });
  const items = await createEntity(db, project.id, { name: 'Items', code: 'items' });
  for (const [code, type] of [
    ['name', 'string'],
    ['status', 'string'],
    ['bucket', 'number'],
    ['amount', 'number'],
  ] as const)
    await createField(db, dialect, items, { name: code, field: code, type });
  const logs = await createEntity(db, project.id, { name: 'Logs', code: 'logs' });
  for (const [code, type] of [
    ['msg', 'string'],
    ['total', 'number'],
  ] as const)
    await createField(db, dialect, logs, { name: code, field: code, type });
  const meta = await loadMeta(db, project.id, 'items');
  const lmeta = await loadMeta(db, project.id, 'logs');
  const col = (code: string) => fieldColumn(meta.byCode.get(code)!.id);
  const lcol = (code: string) => fieldColumn(lmeta.byCode.get(code)!.id);

  const t0 = performance.now();
  for (let i = 0; i < ROWS; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, ROWS - i) }, (_, j) => ({
      _id: newId(),
      _created_at: 0,
      _updated_at: 0,
      [col('name')]: `Item ${i + j}`,
      [col('status')]: 'new',
      [col('bucket')]: (i + j) % BUCKETS,
      [col('amount')]: (i + j) % 97,
    }));
    await any.insertInto(meta.table).values(batch).execute();
  }
  console.log(`== ${ROWS.toLocaleString()} rows loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const process10 = [
    {
      _type: 'input',
      _handle: 'form',
      _procedure: { fields: [{ key: 'bucket', name: 'Bucket', type: 'number', required: true }] },
    },
    {
      _type: 'query',
      _handle: 'q',
      _entity: 'items',
      _procedure: { size: 20, where: { field: 'bucket', opt: 'eq', value: { $expr: 'params.bucket' } } },
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
            _entity: 'items',
            _procedure: {
              id: 'state.item._id',
              values: { amount: 'state.item.amount + 1', status: "'seen'" },
            },
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
      _type: 'condition',
      _handle: 'any',
      _procedure: {
        if: 'state.total > 0',
        yes: [
          {
            _type: 'create',
            _handle: 'log',
            _entity: 'logs',
            _procedure: { values: { msg: "'bucket ' + params.bucket", total: 'state.total' } },
          },
        ],
        no: [{ _type: 'display', _handle: 'none', _procedure: { message: 'nothing' } }],
      },
    },
    { _type: 'return', _handle: 'ret', _procedure: { value: 'state.total' } },
  ];
  let flow = await createFlow(db, project.id, { name: 'Ten steps', _process: process10 });
  flow = await releaseFlow(db, flow, owner.id);
  flow = await findFlow(db, project.id, flow.id);
  const doc = releasedDoc(flow)!;

  // Engine in process against hand-written Kysely, interleaved, on different buckets each time.
  const user = { _id: owner.id, account: owner.account, nickname: owner.nickname, phone: owner.phone };
  const engineMs: number[] = [];
  const kyselyMs: number[] = [];
  let bucket = 0;
  const engineOnce = async () => {
    const b = bucket++ % BUCKETS;
    const s = performance.now();
    const out = await runProgram(app.database, {
      projectId: project.id,
      flow: { id: flow.id, name: flow.name, doc },
      input: { bucket: b },
      user,
      test: false,
      http: app.config.programHttp,
    });
    if (out.error) throw out.error;
    return performance.now() - s;
  };
  const kyselyOnce = async () => {
    const b = bucket++ % BUCKETS;
    const s = performance.now();
    await db.transaction().execute(async (trx) => {
      const t = trx as unknown as AnyDb;
      const rows = await t
        .selectFrom(meta.table)
        .selectAll()
        .where(col('bucket'), '=', b)
        .limit(20)
        .execute();
      let total = 0;
      for (const r of rows) {
        await t
          .updateTable(meta.table)
          .set({
            [col('amount')]: Number(r[col('amount')]) + 1,
            [col('status')]: 'seen',
            _updated_at: Date.now(),
          })
          .where('_id', '=', r._id as string)
          .execute();
        total += Number(r[col('amount')]);
      }
      if (total > 0)
        await t
          .insertInto(lmeta.table)
          .values({
            _id: newId(),
            _created_at: Date.now(),
            _updated_at: Date.now(),
            _creator: owner.id,
            [lcol('msg')]: `bucket ${b}`,
            [lcol('total')]: total,
          })
          .execute();
    });
    return performance.now() - s;
  };
  for (let i = 0; i < 20; i++) {
    await engineOnce();
    await kyselyOnce();
  }
  const statements = statementCacheOf(app.database.sqlite!)!;
  const counted = async (f: () => Promise<number>) => {
    const n0 = statements.hits + statements.misses;
    await f();
    return statements.hits + statements.misses - n0;
  };
  console.log(
    `statements per run (begin and commit included): engine ${await counted(engineOnce)} | hand-written Kysely ${await counted(kyselyOnce)}`,
  );
  const engineCpu: number[] = [];
  const kyselyCpu: number[] = [];
  const cpuOf = async (f: () => Promise<number>, cpu: number[]) => {
    const c0 = process.cpuUsage();
    const wall = await f();
    const d = process.cpuUsage(c0);
    cpu.push((d.user + d.system) / 1000);
    return wall;
  };
  for (let i = 0; i < 300; i++) {
    engineMs.push(await cpuOf(engineOnce, engineCpu));
    kyselyMs.push(await cpuOf(kyselyOnce, kyselyCpu));
  }
  const e50 = pct(engineMs, 50);
  const k50 = pct(kyselyMs, 50);
  const ec50 = pct(engineCpu, 50);
  const kc50 = pct(kyselyCpu, 50);
  console.log(
    `engine (runProgram) p50 ${ms(e50)} p95 ${ms(pct(engineMs, 95))} | hand-written Kysely p50 ${ms(k50)} p95 ${ms(pct(kyselyMs, 95))} | ratio ${(e50 / k50).toFixed(2)}× (goal ≤ 1.3×)`,
  );
  console.log(
    `CPU time: engine p50 ${ms(ec50)} | hand-written Kysely p50 ${ms(kc50)} | ratio ${(ec50 / kc50).toFixed(2)}× | load average ${os.loadavg()[0]!.toFixed(1)}`,
  );

  // Exec over HTTP.
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const exec = async (b: number) => {
    const res = await fetch(
      `http://127.0.0.1:${port}/api/common/program/${project.id}/exec/${flow.id}/bench`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body: JSON.stringify({ data: { bucket: b } }),
      },
    );
    const body = (await res.json()) as { error: number };
    return { status: res.status, error: body.error };
  };
  for (let i = 0; i < 20; i++) await exec(bucket++ % BUCKETS);
  const httpMs: number[] = [];
  for (let i = 0; i < EXECS; i++) {
    const s = performance.now();
    const r = await exec(bucket++ % BUCKETS);
    httpMs.push(performance.now() - s);
    if (r.error !== 0) throw new Error(`exec answered ${r.error}`);
  }
  console.log(
    `exec over HTTP (${EXECS} sequential): p50 ${ms(pct(httpMs, 50))} p95 ${ms(pct(httpMs, 95))} (goal p50 ≤ 15 ms); engine share ${((e50 / pct(httpMs, 50)) * 100).toFixed(0)} %`,
  );

  // 100 concurrent execs.
  const c0 = performance.now();
  const answers = await Promise.all(Array.from({ length: 100 }, () => exec(bucket++ % BUCKETS)));
  const fivexx = answers.filter((a) => a.status >= 500).length;
  const okCount = answers.filter((a) => a.status === 200 && a.error === 0).length;
  console.log(
    `100 concurrent execs: ${okCount} ok, ${fivexx} 5xx, ${100 - answers.length} lost, in ${ms(performance.now() - c0)}`,
  );

  // Code step: first in the process, then warm.
  const inp = { params: { a: 1 }, record: null, user: null, state: { q: [1, 2, 3] } };
  const limits = { timeoutMs: 1000, memoryBytes: 32 * 1024 * 1024, maxAnswerChars: 1_000_000 };
  const f0 = performance.now();
  const first = await runCode('return api.params.a + api.state.q.length', inp, limits);
  const firstMs = performance.now() - f0;
  if (!first.ok) throw new Error('code step failed');
  const warm: number[] = [];
  for (let i = 0; i < 500; i++) {
    const s = performance.now();
    await runCode('return api.params.a + api.state.q.length', inp, limits);
    warm.push(performance.now() - s);
  }
  console.log(
    `code step: first in the process ${ms(firstMs)} (goal ≤ 50 ms; loads the WebAssembly module in its worker) | warm p50 ${ms(pct(warm, 50))} p95 ${ms(pct(warm, 95))} (goal ≤ 1 ms)`,
  );

  // RSS over 10,000 scripts after it settled.
  for (let i = 0; i < 1000; i++) await runCode(`return [${i}, api.params.a, "x".repeat(100)]`, inp, limits);
  (globalThis as { gc?: () => void }).gc?.();
  const settled = process.memoryUsage().rss;
  const r0 = performance.now();
  for (let i = 0; i < CODE_RUNS; i++)
    await runCode(`return [${i}, api.params.a, "x".repeat(100)]`, inp, limits);
  (globalThis as { gc?: () => void }).gc?.();
  const after = process.memoryUsage().rss;
  console.log(
    `${CODE_RUNS.toLocaleString()} code scripts in ${((performance.now() - r0) / 1000).toFixed(1)} s: RSS ${(settled / 1048576).toFixed(0)} MB → ${(after / 1048576).toFixed(0)} MB (${(((after - settled) / settled) * 100).toFixed(1)} %, goal within 10 %)`,
  );

  await codeRunner.close();
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await main();
