/**
 * bench:api — requests/s of GET /api/common/user/userInfo on our full app against a bare Fastify
 * route answering the same JSON, each server in its own process, measured in the same run.
 * Goal: ours ≥ 70% of the bare route.
 *
 * The machine is shared and noisy, so besides requests/s it prints the server's CPU time per
 * request (user + system, read from the server process itself), which other load barely moves,
 * and the ratio of both. Rounds interleave bare and ours; medians are reported.
 *
 * First it prints cold start to first data and idle RSS (./startup.ts; BENCH_START_ONLY=1 stops there).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { startupSection } from './startup.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const sampleUser = {
  _id: '64f0c0ffee0000000000abcd',
  account: 'benchuser1',
  nickname: 'Bench',
  name: 'Bench',
  phone: '13900000000',
  avatar: null,
  status: 'active',
  createdAt: 1700000000000,
};

async function serveOurs(): Promise<void> {
  const { buildApp } = await import('../../src/server/app.ts');
  const { loadConfig } = await import('../../src/server/config.ts');
  const { createUser, createSession } = await import('../../src/server/account/service.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-bench-'));
  const app = await buildApp(loadConfig({}, { dataDir, clientDir: path.join(dataDir, 'none') }), {
    logger: false,
  });
  const user = await createUser(app.database.db, {
    account: 'benchuser1',
    phone: '13900000000',
    nickname: 'Bench',
    pwd: 'bench12345',
  });
  const token = await createSession(app.database.db, user.id);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  process.stdout.write(`${JSON.stringify({ port, token })}\n`);
  answerCpu();
}

/** Answer each `cpu` line on stdin with this process's CPU time in µs. */
function answerCpu(): void {
  createInterface({ input: process.stdin }).on('line', () => {
    const u = process.cpuUsage();
    process.stdout.write(`${u.user + u.system}\n`);
  });
}

async function serveBare(): Promise<void> {
  const Fastify = (await import('fastify')).default;
  const app = Fastify({ logger: false });
  app.get('/api/common/user/userInfo', async () => ({ error: 0, data: sampleUser }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  process.stdout.write(`${JSON.stringify({ port, token: 'none' })}\n`);
  answerCpu();
}

interface Server {
  child: ChildProcess;
  port: number;
  token: string;
  cpu(): Promise<number>;
}

function start(mode: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, mode], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const rl = createInterface({ input: child.stdout! });
  const lines: ((line: string) => void)[] = [];
  rl.on('line', (line) => lines.shift()?.(line));
  const next = () => new Promise<string>((resolve) => lines.push(resolve));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} exited with ${code}`)));
    void next().then((line) => {
      const { port, token } = JSON.parse(line) as { port: number; token: string };
      const cpu = () => {
        const answer = next();
        child.stdin!.write('cpu\n');
        return answer.then(Number);
      };
      resolve({ child, port, token, cpu });
    });
  });
}

async function measure(mode: string, headers: (token: string) => Record<string, string>) {
  const server = await start(mode);
  try {
    const url = `http://127.0.0.1:${server.port}/api/common/user/userInfo`;
    const h = headers(server.token);
    // Warm-up, then the measured run.
    await autocannon({ url, connections: CONNECTIONS, duration: 2, headers: h });
    const cpu0 = await server.cpu();
    const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: h });
    const cpu1 = await server.cpu();
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${mode}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return {
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      cpuPerReq: (cpu1 - cpu0) / r.requests.total,
    };
  } finally {
    server.child.kill('SIGTERM');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  await startupSection(Number(process.env.BENCH_START_ROUNDS ?? 3));
  if (process.env.BENCH_START_ONLY) return;
  console.log(
    `bench:api — ${CONNECTIONS} connections, ${DURATION}s per run, ${ROUNDS} rounds, node ${process.version}`,
  );
  const runs: Record<'bare' | 'raw' | 'sealed', { rps: number; cpuPerReq: number }[]> = {
    bare: [],
    raw: [],
    sealed: [],
  };
  for (let round = 1; round <= ROUNDS; round++) {
    const results = {
      bare: await measure('serve-bare', () => ({})),
      raw: await measure('serve-ours', (token) => ({ token })),
      sealed: await measure('serve-ours', (token) => ({ token, 'x-envelope': '1' })),
    };
    for (const [name, r] of Object.entries(results)) {
      runs[name as keyof typeof runs].push(r);
      console.log(
        `round ${round} ${name.padEnd(7)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
          `server CPU ${r.cpuPerReq.toFixed(1)} µs/req`,
      );
    }
  }
  const m = (k: keyof typeof runs) => ({
    rps: median(runs[k].map((r) => r.rps)),
    cpu: median(runs[k].map((r) => r.cpuPerReq)),
  });
  const bare = m('bare');
  console.log('');
  console.log(
    `bare Fastify route           ${bare.rps.toFixed(0).padStart(7)} req/s   ${bare.cpu.toFixed(1)} µs CPU/req`,
  );
  for (const k of ['raw', 'sealed'] as const) {
    const x = m(k);
    console.log(
      `ours userInfo (${k.padEnd(6)})       ${x.rps.toFixed(0).padStart(7)} req/s   ${x.cpu.toFixed(1)} µs CPU/req   ` +
        `ratio ${((x.rps / bare.rps) * 100).toFixed(1)}% by req/s, ${((bare.cpu / x.cpu) * 100).toFixed(1)}% by CPU/req` +
        (k === 'raw' ? '  (goal ≥ 70%)' : ''),
    );
  }
}

const mode = process.argv[2];
if (mode === 'serve-ours') await serveOurs();
else if (mode === 'serve-bare') await serveBare();
else await main();
