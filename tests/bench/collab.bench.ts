/**
 * bench:collab — update delivery of the co-editing endpoint against a baseline, same harness, same run.
 *
 * Baseline: a minimal y-websocket-protocol server written here from y-protocols (sync + awareness),
 * with no auth and no persistence. The issue asks for "y-websocket's own server utilities"; those
 * only ship as y-websocket@2's CommonJS bin/utils, which cannot be loaded from our ESM code without
 * a second copy of yjs and a native LevelDB build (DESIGN "Known traps"), so this file carries the
 * equivalent stock behaviour instead (one Y.Doc per room, relay every update and awareness change).
 *
 * Each server runs in its own child process (`--expose-gc`, memory read there), one after the other.
 * Scenario A: many rooms × few clients at a low rate; B: one room × many clients at a high rate.
 * Clients speak the protocol directly: senders are real Y.Docs; receivers only read the update's
 * (client, clock) to find its send time, so the harness stays light enough for 2 cores.
 * Prints p50/p99 delivery latency, the ours/baseline ratio, dropped updates and server memory
 * (RSS/heap) idle → loaded → after all rooms closed.
 *
 * Env: BENCH_A_ROOMS (500) BENCH_A_CLIENTS (3) BENCH_A_RATE (1/s) BENCH_A_SECONDS (10)
 *      BENCH_B_CLIENTS (50) BENCH_B_RATE (20/s) BENCH_B_SECONDS (6) BENCH_IDLE_MS (1000)
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket, { WebSocketServer } from 'ws';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const A = {
  rooms: env('BENCH_A_ROOMS', 500),
  clients: env('BENCH_A_CLIENTS', 3),
  rate: env('BENCH_A_RATE', 1),
  seconds: env('BENCH_A_SECONDS', 10),
};
const B = {
  rooms: 1,
  clients: env('BENCH_B_CLIENTS', 50),
  rate: env('BENCH_B_RATE', 20),
  seconds: env('BENCH_B_SECONDS', 6),
};
const IDLE_MS = env('BENCH_IDLE_MS', 1000);

interface Ready {
  port: number;
  /** ws URL of a room, by index. */
  rooms: string[];
  /** Query string (token) to append. */
  query: string;
}
interface Mem {
  rss: number;
  heapUsed: number;
  /** Server CPU time so far (user + system), µs. */
  cpu: number;
}

// ───────────────────────────── servers (child processes) ─────────────────────────────

async function serveOurs(): Promise<Ready> {
  const { buildApp } = await import('../../src/server/app.ts');
  const { loadConfig } = await import('../../src/server/config.ts');
  const { createUser, createSession } = await import('../../src/server/account/service.ts');
  const { createProject } = await import('../../src/server/project/service.ts');
  const { newId } = await import('../../src/shared/id.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-collab-'));
  process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const app = await buildApp(loadConfig({}, { dataDir, clientDir: path.join(dataDir, 'none') }), {
    logger: false,
    realtime: { idleMs: IDLE_MS },
  });
  const db = app.database.db;
  const user = await createUser(db, {
    account: 'benchuser1',
    phone: null,
    nickname: 'Bench',
    pwd: 'bench12345',
  });
  const token = await createSession(db, user.id);
  const project = await createProject(db, user.id, 'bench');
  const count = Math.max(A.rooms, B.rooms);
  const now = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(newId());
  for (let i = 0; i < ids.length; i += 200) {
    await db
      .insertInto('pages')
      .values(
        ids
          .slice(i, i + 200)
          .map((id) => ({ id, project_id: project.id, name: id, created_at: now, updated_at: now })),
      )
      .execute();
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    port,
    rooms: ids.map((id) => `ws://127.0.0.1:${port}/yjs/${project.id}/${id}`),
    query: `?token=${token}`,
  };
}

/** The baseline: relay-only y-protocols server, one Y.Doc per room, freed when its last client leaves. */
async function serveBaseline(): Promise<Ready> {
  type Room = { doc: Y.Doc; awareness: awarenessProtocol.Awareness; conns: Set<WebSocket> };
  const rooms = new Map<string, Room>();
  const server = http.createServer((_, res) => res.end());
  const wss = new WebSocketServer({ server });
  const getRoom = (name: string): Room => {
    let room = rooms.get(name);
    if (room) return room;
    const doc = new Y.Doc();
    const awareness = new awarenessProtocol.Awareness(doc);
    awareness.setLocalState(null);
    const r: Room = { doc, awareness, conns: new Set() };
    doc.on('update', (update: Uint8Array, origin: unknown) => {
      const enc = encoding.createEncoder();
      encoding.writeVarUint(enc, 0);
      syncProtocol.writeUpdate(enc, update);
      const msg = encoding.toUint8Array(enc);
      for (const c of r.conns) if (c !== origin) c.send(msg);
    });
    awareness.on('update', ({ added, updated, removed }: Record<string, number[]>, origin: unknown) => {
      const enc = encoding.createEncoder();
      encoding.writeVarUint(enc, 1);
      encoding.writeVarUint8Array(
        enc,
        awarenessProtocol.encodeAwarenessUpdate(awareness, [...added!, ...updated!, ...removed!]),
      );
      const msg = encoding.toUint8Array(enc);
      for (const c of r.conns) if (c !== origin) c.send(msg);
    });
    rooms.set(name, r);
    room = r;
    return room;
  };
  wss.on('connection', (ws, req) => {
    const name = (req.url ?? '/').split('?')[0]!;
    const room = getRoom(name);
    room.conns.add(ws);
    ws.on('message', (data: Buffer) => {
      const dec = decoding.createDecoder(data);
      const enc = encoding.createEncoder();
      const type = decoding.readVarUint(dec);
      if (type === 0) {
        encoding.writeVarUint(enc, 0);
        syncProtocol.readSyncMessage(dec, enc, room.doc, ws);
        if (encoding.length(enc) > 1) ws.send(encoding.toUint8Array(enc));
      } else if (type === 1) {
        awarenessProtocol.applyAwarenessUpdate(room.awareness, decoding.readVarUint8Array(dec), ws);
      }
    });
    ws.on('close', () => {
      room.conns.delete(ws);
      if (room.conns.size === 0) {
        room.awareness.destroy();
        room.doc.destroy();
        rooms.delete(name);
      }
    });
    const enc = encoding.createEncoder();
    encoding.writeVarUint(enc, 0);
    syncProtocol.writeSyncStep1(enc, room.doc);
    ws.send(encoding.toUint8Array(enc));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const count = Math.max(A.rooms, B.rooms);
  return {
    port,
    rooms: Array.from({ length: count }, (_, i) => `ws://127.0.0.1:${port}/room-${i}`),
    query: '',
  };
}

async function child(kind: string): Promise<void> {
  const ready = kind === 'ours' ? await serveOurs() : await serveBaseline();
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('SIGTERM', () => process.exit(0));
  // 'mem' collects garbage first (memory figures); 'cpu' does not (so forced GCs are not counted).
  process.on('message', (m: string) => {
    if (m === 'mem') {
      gc?.();
      gc?.();
    }
    const c = process.cpuUsage();
    const u = process.memoryUsage();
    process.send!({ mem: { rss: u.rss, heapUsed: u.heapUsed, cpu: c.user + c.system } });
  });
  process.send!({ ready });
}

// ───────────────────────────── harness ─────────────────────────────

interface Stats {
  sent: number;
  latencies: number[];
  expected: number;
  received: number;
}

/** Send times by `${client}:${clock}` of the update's last struct. */
const sentAt = new Map<string, number>();

/** `${client}:${clock}` of every struct in an update (servers may merge several updates into one). */
function updateKeys(update: Uint8Array, skipClient?: number): string[] {
  const { from, to } = Y.parseUpdateMeta(update);
  const keys: string[] = [];
  for (const [client, start] of from) {
    if (client === skipClient) continue;
    const end = to.get(client) ?? start;
    for (let clock = start; clock < end; clock++) keys.push(`${client}:${clock}`);
  }
  return keys;
}

class Client {
  readonly doc = new Y.Doc();
  readonly ws: WebSocket;
  readonly open: Promise<void>;
  private n = 0;

  constructor(
    url: string,
    private readonly stats: Stats,
  ) {
    this.ws = new WebSocket(url);
    this.ws.binaryType = 'nodebuffer';
    this.open = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
      this.ws.once('close', (code) => reject(new Error(`closed ${code}`)));
    });
    this.ws.on('message', (data: Buffer) => this.receive(data));
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === 'remote') return;
      const now = performance.now();
      for (const key of updateKeys(update)) sentAt.set(key, now);
      const enc = encoding.createEncoder();
      encoding.writeVarUint(enc, 0);
      syncProtocol.writeUpdate(enc, update);
      this.ws.send(encoding.toUint8Array(enc));
    });
    this.ws.once('open', () => {
      const enc = encoding.createEncoder();
      encoding.writeVarUint(enc, 0);
      syncProtocol.writeSyncStep1(enc, this.doc);
      this.ws.send(encoding.toUint8Array(enc));
    });
  }

  private receive(data: Buffer): void {
    const dec = decoding.createDecoder(data);
    if (decoding.readVarUint(dec) !== 0) return;
    const sub = decoding.readVarUint(dec);
    if (sub === syncProtocol.messageYjsSyncStep1) {
      const enc = encoding.createEncoder();
      encoding.writeVarUint(enc, 0);
      syncProtocol.writeSyncStep2(enc, this.doc, decoding.readVarUint8Array(dec));
      this.ws.send(encoding.toUint8Array(enc));
    } else if (sub === syncProtocol.messageYjsUpdate) {
      const now = performance.now();
      // Our own changes echoed back (a server may do that for merged batches) are not deliveries.
      for (const key of updateKeys(decoding.readVarUint8Array(dec), this.doc.clientID)) {
        const t = sentAt.get(key);
        if (t !== undefined) {
          this.stats.latencies.push(now - t);
          this.stats.received++;
        }
      }
    }
  }

  /** One edit: overwrite this client's key, so documents stay small however long the run. */
  edit(): void {
    this.n++;
    this.doc.getMap('m').set(String(this.doc.clientID), this.n);
  }

  close(): void {
    this.ws.close();
    this.doc.destroy();
  }
}

async function runScenario(
  ready: Ready,
  sc: { rooms: number; clients: number; rate: number; seconds: number },
  connected: () => Promise<unknown>,
): Promise<{ stats: Stats; clients: Client[] }> {
  const stats: Stats = { sent: 0, latencies: [], expected: 0, received: 0 };
  const clients: Client[] = [];
  for (let r = 0; r < sc.rooms; r++) {
    for (let c = 0; c < sc.clients; c++) clients.push(new Client(`${ready.rooms[r]}${ready.query}`, stats));
    if (clients.length % 150 === 0) await Promise.all(clients.slice(-150).map((x) => x.open));
  }
  await Promise.all(clients.map((x) => x.open));
  await new Promise((r) => setTimeout(r, 500));
  await connected();
  const period = 1000 / sc.rate;
  const timers: NodeJS.Timeout[] = [];
  const stopAt = Date.now() + sc.seconds * 1000;
  for (const cl of clients) {
    // Random phase so sends spread over the period.
    const start = setTimeout(() => {
      const tick = () => {
        if (Date.now() >= stopAt) return;
        cl.edit();
        stats.sent++;
        stats.expected += sc.clients - 1;
      };
      tick();
      timers.push(setInterval(tick, period));
    }, Math.random() * period);
    timers.push(start);
  }
  await new Promise((r) => setTimeout(r, sc.seconds * 1000 + 50));
  for (const t of timers) clearInterval(t);
  await new Promise((r) => setTimeout(r, 2000)); // drain
  return { stats, clients };
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function startServer(
  kind: string,
): Promise<{ proc: ChildProcess; ready: Ready; mem(what?: 'mem' | 'cpu'): Promise<Mem> }> {
  const proc = fork(import.meta.filename, ['--serve', kind], {
    // BENCH_PROF=dir writes a CPU profile of each server there.
    execArgv: [
      '--expose-gc',
      '--import',
      'tsx',
      ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${kind} server exited ${code}`)));
    proc.once('message', (m: { ready: Ready }) =>
      resolve({
        proc,
        ready: m.ready,
        mem: (what: 'mem' | 'cpu' = 'mem') =>
          new Promise<Mem>((res) => {
            proc.once('message', (x: { mem: Mem }) => res(x.mem));
            proc.send(what);
          }),
      }),
    );
  });
}

interface Result {
  /** Server CPU µs per update received from a client (robust to other load on the machine). */
  cpuPerUpdate: number;
  p50: number;
  p99: number;
  dropped: number;
  deliveries: number;
}
interface ServerResult {
  A: Result;
  B: Result;
  mem: { idle: Mem; loaded: Mem; closed: Mem };
}

async function measure(kind: string): Promise<ServerResult> {
  const server = await startServer(kind);
  const idle = await server.mem();
  const out: Partial<ServerResult> = {};
  let loaded: Mem = idle;
  for (const [name, sc] of [
    ['A', A],
    ['B', B],
  ] as const) {
    sentAt.clear();
    let before: Mem = idle;
    const { stats, clients } = await runScenario(server.ready, sc, async () => {
      before = await server.mem('cpu');
    });
    const after = await server.mem('cpu');
    if (name === 'A') loaded = await server.mem();
    for (const c of clients) c.close();
    const sorted = stats.latencies.sort((x, y) => x - y);
    out[name] = {
      cpuPerUpdate: (after.cpu - before.cpu) / Math.max(1, stats.sent),
      p50: pct(sorted, 50),
      p99: pct(sorted, 99),
      dropped: stats.expected - stats.received,
      deliveries: stats.received,
    };
    process.stdout.write(
      `  ${kind.padEnd(8)} ${name}: ${stats.received} deliveries, p50 ${out[name].p50.toFixed(2)} ms, p99 ${out[name].p99.toFixed(2)} ms, dropped ${out[name].dropped}, server CPU ${out[name].cpuPerUpdate.toFixed(0)} µs/update\n`,
    );
  }
  // Let idle documents unload (ours: flush + compact), then read memory.
  await new Promise((r) => setTimeout(r, IDLE_MS + 2500));
  const closed = await server.mem();
  server.proc.removeAllListeners('exit');
  server.proc.kill('SIGTERM');
  out.mem = { idle, loaded, closed };
  return out as ServerResult;
}

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

async function main(): Promise<void> {
  const t0 = Date.now();
  process.stdout.write(
    `bench:collab  A: ${A.rooms} rooms × ${A.clients} clients @ ${A.rate}/s for ${A.seconds}s · ` +
      `B: 1 room × ${B.clients} clients @ ${B.rate}/s for ${B.seconds}s\n`,
  );
  const base = await measure('baseline');
  const ours = await measure('ours');
  const lines: string[] = [
    '',
    'scenario  server     p50 ms   p99 ms   dropped   deliveries   server µs/update',
  ];
  for (const sc of ['A', 'B'] as const) {
    for (const [name, r] of [
      ['baseline', base[sc]],
      ['ours', ours[sc]],
    ] as const) {
      lines.push(
        `${sc.padEnd(9)} ${name.padEnd(9)} ${r.p50.toFixed(2).padStart(7)} ${r.p99.toFixed(2).padStart(8)} ${String(r.dropped).padStart(9)} ${String(r.deliveries).padStart(12)} ${r.cpuPerUpdate.toFixed(0).padStart(18)}`,
      );
    }
    lines.push(
      `${sc.padEnd(9)} ratio     ${(ours[sc].p50 / base[sc].p50).toFixed(2).padStart(7)} ${(ours[sc].p99 / base[sc].p99).toFixed(2).padStart(8)} ${''.padStart(22)} ${(ours[sc].cpuPerUpdate / base[sc].cpuPerUpdate).toFixed(2).padStart(18)}   (ours / baseline; goal p99 ≤ 2× and ≤ 20 ms, 0 dropped)`,
    );
  }
  lines.push('', 'memory (after gc)  idle → loaded (A running) → all rooms closed');
  for (const [name, r] of [
    ['baseline', base],
    ['ours', ours],
  ] as const) {
    const { idle, loaded, closed } = r.mem;
    lines.push(
      `  ${name.padEnd(9)} rss ${mb(idle.rss)} → ${mb(loaded.rss)} → ${mb(closed.rss)} · heap ${mb(idle.heapUsed)} → ${mb(loaded.heapUsed)} → ${mb(closed.heapUsed)} (heap back within ${(((closed.heapUsed - idle.heapUsed) / idle.heapUsed) * 100).toFixed(1)}% of idle)`,
    );
  }
  lines.push(`\ntotal ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv[2] === '--serve') {
  await child(process.argv[3]!);
} else {
  await main();
  process.exit(0);
}
