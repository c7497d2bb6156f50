/**
 * Cold start and idle memory of the server as a self-hoster runs it (part of bench:api).
 *
 * One data folder is prepared with the demo (first run), a session token is taken, then each round
 * starts a fresh server process on that folder and times spawn → the first answered data request
 * (the demo's customers, 20 rows, through the end-user data call), then lets it idle and reads the
 * resident memory of the whole process tree (wrappers included: `npx tsx` is three processes).
 *
 * Compared in the same run:
 *   built  `node dist/server/main.js` (what `npm start` runs now, in its own process)
 *   tsx    `npx tsx src/server/main.ts` (how `npm start` ran the server before)
 * Goals (issue #19): cold start to first data ≤ 1.5 s, idle RSS ≤ 150 MiB.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 5000);
const ACCOUNT = 'benchowner';
const PASSWORD = 'bench-start-123';

type Mode = 'built' | 'tsx';

function command(mode: Mode): [string, string[]] {
  return mode === 'built'
    ? [process.execPath, ['dist/server/main.js']]
    : ['npx', ['tsx', 'src/server/main.ts']];
}

function freePort(): number {
  return Number(
    execFileSync(
      process.execPath,
      [
        '-e',
        "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
      ],
      { encoding: 'utf8' },
    ).trim(),
  );
}

/** Resident set of a process and all its descendants, in MiB (Linux /proc). */
export function treeRssMiB(pid: number): number {
  const parent = new Map<number, number>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(d), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [p, pp] of parent) {
      if (!tree.has(p) && tree.has(pp)) {
        tree.add(p);
        grew = true;
      }
    }
  }
  let kb = 0;
  for (const p of tree) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

function launch(mode: Mode, dataDir: string, port: number): ChildProcess {
  const [cmd, args] = command(mode);
  return spawn(cmd, args, {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_ACCOUNT: ACCOUNT,
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const r = await fetch(url, init);
  const body = (await r.json()) as { error: number; data: T; msg?: string };
  if (body.error !== 0) throw new Error(`${url}: ${body.error} ${body.msg ?? ''}`);
  return body.data;
}

interface Prepared {
  dataDir: string;
  token: string;
  project: string;
}

/** A data folder with the demo, and a token of its owner. */
async function prepare(): Promise<Prepared> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-bench-start-'));
  const port = freePort();
  const child = launch('built', dataDir, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const { token } = await json<{ token: string }>(`${base}/api/common/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user: ACCOUNT, pwd: PASSWORD }),
        });
        const projects = await json<{ _id: string; name: string }[]>(`${base}/api/common/project/list`, {
          headers: { token },
        });
        return { dataDir, token, project: projects[0]!._id };
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await stop(child);
  }
}

async function coldStart(mode: Mode, prep: Prepared): Promise<{ firstData: number; rss: number }> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}/api/app/simple/${prep.project}/customer/query`;
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: prep.token },
    body: JSON.stringify({ page: { index: 1, size: 20 } }),
  };
  const t0 = performance.now();
  const child = launch(mode, prep.dataDir, port);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${mode} exited with ${child.exitCode}`);
      try {
        const rows = await json<{ data: unknown[] }>(url, init);
        if (rows.data.length === 0) throw new Error('no rows');
        break;
      } catch (err) {
        if (!/fetch failed|ECONNREFUSED/.test(String((err as Error).cause ?? err))) throw err;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    const firstData = performance.now() - t0;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { firstData, rss: treeRssMiB(child.pid!) };
  } finally {
    await stop(child);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function startupSection(rounds: number): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  }
  const prep = await prepare();
  const runs: Record<Mode, { firstData: number; rss: number }[]> = { built: [], tsx: [] };
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const mode of ['built', 'tsx'] as const) {
        const r = await coldStart(mode, prep);
        runs[mode].push(r);
        console.log(
          `start round ${round} ${mode.padEnd(5)} first data ${r.firstData.toFixed(0).padStart(5)} ms   idle RSS ${r.rss.toFixed(1)} MiB (process tree)`,
        );
      }
    }
  } finally {
    fs.rmSync(prep.dataDir, { recursive: true, force: true });
  }
  const b = { first: median(runs.built.map((r) => r.firstData)), rss: median(runs.built.map((r) => r.rss)) };
  const t = { first: median(runs.tsx.map((r) => r.firstData)), rss: median(runs.tsx.map((r) => r.rss)) };
  console.log('');
  console.log(
    `cold start to first data   node dist/server ${b.first.toFixed(0)} ms   npx tsx ${t.first.toFixed(0)} ms   ` +
      `ratio ${(b.first / t.first).toFixed(2)}×   (goal ≤ 1500 ms)`,
  );
  console.log(
    `idle RSS after ${IDLE_MS / 1000} s         node dist/server ${b.rss.toFixed(1)} MiB   npx tsx ${t.rss.toFixed(1)} MiB   ` +
      `ratio ${(b.rss / t.rss).toFixed(2)}×   (goal ≤ 150 MiB)`,
  );
  console.log('');
}
