import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import * as authProtocol from 'y-protocols/auth';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { createRole } from '../../src/server/access/roles.ts';
import { createSession, createUser } from '../../src/server/account/service.ts';
import { buildApp } from '../../src/server/app.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';
import { createProject } from '../../src/server/project/service.ts';
import type { RealtimeOptions } from '../../src/server/realtime/index.ts';
import { newId } from '../../src/shared/id.ts';
import { postgresUrl, removeTestStorage, type TestDialect } from './db.ts';

let seq = 0;

/** A database that outlives app instances, so tests can restart the server on it. */
export interface RealtimeEnv {
  config: Config;
  /** Build and listen on a free port; answers the app and its ws:// base URL. */
  start(opts?: { realtime?: Partial<RealtimeOptions>; redisUrl?: string }): Promise<Running>;
  cleanup(): Promise<void>;
}

export interface Running {
  app: FastifyInstance;
  url: string;
  port: number;
}

export async function createRealtimeEnv(dialect: TestDialect): Promise<RealtimeEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-rt-'));
  let databaseUrl: string | undefined;
  let databaseSchema: string | undefined;
  if (dialect === 'postgres') {
    databaseUrl = await postgresUrl();
    if (!databaseUrl) throw new Error('PostgreSQL is required for this run but not reachable');
    databaseSchema = `rt_${process.pid}_${Date.now().toString(36)}_${seq++}`;
  }
  const config = loadConfig(
    {},
    { dataDir, databaseUrl, databaseSchema, clientDir: path.join(dataDir, 'no-client'), testOutbox: true },
  );
  const apps: FastifyInstance[] = [];
  return {
    config,
    async start(opts = {}) {
      const app = await buildApp(
        { ...config, redisUrl: opts.redisUrl },
        { logger: false, realtime: { redisPrefix: `lct${process.pid}`, ...opts.realtime } },
      );
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
      const port = (app.server.address() as { port: number }).port;
      return { app, port, url: `ws://127.0.0.1:${port}` };
    },
    async cleanup() {
      for (const a of apps) await a.close().catch(() => {});
      await removeTestStorage(dataDir, databaseUrl, databaseSchema);
    },
  };
}

export interface Seed {
  projectId: string;
  pageId: string;
  owner: { id: string; token: string };
  admin: { id: string; token: string };
  reader: { id: string; token: string };
  outsider: { id: string; token: string };
}

let userSeq = 0;

/**
 * Users (owner, admin, `reader`: a common-role member, who reads the app but no page drafts, and a
 * non-member), one project with one page.
 */
export async function seed(app: FastifyInstance): Promise<Seed> {
  const db = app.database.db;
  const mk = async (label: string) => {
    const n = `${process.pid % 10000}${userSeq++}`;
    const u = await createUser(db, {
      account: `${label}${n}`,
      phone: null,
      nickname: label,
      pwd: 'abc12345',
    });
    return { id: u.id, token: await createSession(db, u.id) };
  };
  const owner = await mk('owner');
  const admin = await mk('admin');
  const reader = await mk('reader');
  const outsider = await mk('outsider');
  const project = await createProject(db, owner.id, 'RT');
  const now = Date.now();
  for (const [u, role] of [
    [admin, 'admin'],
    [reader, 'common'],
  ] as const) {
    await db
      .insertInto('project_members')
      .values({
        project_id: project.id,
        user_id: u.id,
        role_type: role,
        role_id: null,
        status: 'active',
        created_at: now,
      })
      .execute();
  }
  const pageId = await addPage(app, project.id);
  return { projectId: project.id, pageId, owner, admin, reader, outsider };
}

/** Gives a common member a role that grants one page (as the role screens would). */
export async function grantPage(app: FastifyInstance, projectId: string, userId: string, page: string) {
  const db = app.database.db;
  const role = await createRole(db, projectId, { name: `page-${page.slice(-6)}`, type: 'common' });
  await db
    .updateTable('roles')
    .set({ grants: JSON.stringify({ page: [page] }) })
    .where('id', '=', role.id)
    .execute();
  await db
    .updateTable('project_members')
    .set({ role_id: role.id })
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .execute();
}

export async function addPage(app: FastifyInstance, projectId: string): Promise<string> {
  const id = newId();
  const now = Date.now();
  await app.database.db
    .insertInto('pages')
    .values({ id, project_id: projectId, name: `page ${id}`, created_at: now, updated_at: now })
    .execute();
  return id;
}

/** A stock y-websocket client on `${url}/yjs`, room `${project}/${page}`. */
export function yClient(url: string, projectId: string, pageId: string, token: string) {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(`${url}/yjs`, `${projectId}/${pageId}`, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params: { token },
    disableBc: true,
    connect: true,
  });
  return { doc, provider };
}

/** Collect the reasons of "permission denied" auth messages a provider receives. */
export function deniedReasons(provider: WebsocketProvider): string[] {
  const reasons: string[] = [];
  provider.messageHandlers[2] = (_enc, dec) => {
    authProtocol.readAuthMessage(dec, provider.doc, (_y, reason) => reasons.push(reason));
  };
  return reasons;
}

export function synced(provider: WebsocketProvider, ms = 5000): Promise<void> {
  if (provider.synced) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('not synced in time')), ms);
    provider.once('sync', (ok: boolean) => {
      if (ok) {
        clearTimeout(t);
        resolve();
      }
    });
  });
}

/** Poll until the check passes or time runs out. */
export async function until(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Open a raw socket and answer its close code (or 0 if it stayed open for `ms`). */
export function closeCode(url: string, ms = 3000): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    const t = setTimeout(() => {
      ws.terminate();
      resolve(0);
    }, ms);
    ws.on('close', (code) => {
      clearTimeout(t);
      resolve(code);
    });
    ws.on('error', () => {});
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function healthy(port: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Start `src/server/main.ts` as its own process on the env's database; answers once it is healthy. */
export async function spawnServer(
  config: Config,
  extra: Record<string, string> = {},
  /** A built main.js to run instead of the sources through tsx (starts several times faster). */
  entry?: string,
  /** How long it may take to answer /api/health. */
  startMs = 45_000,
): Promise<{ proc: ChildProcess; port: number; url: string }> {
  const port = await freePort();
  const args = entry ? [entry] : ['--import', 'tsx', 'src/server/main.ts'];
  const proc = spawn(process.execPath, args, {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: config.dataDir,
      DATABASE_URL: config.databaseUrl ?? '',
      DATABASE_SCHEMA: config.databaseSchema ?? '',
      CLIENT_DIR: config.clientDir,
      REDIS_URL: '',
      LOG_LEVEL: 'error',
      ...extra,
    },
  });
  try {
    await healthy(port, startMs);
  } catch (err) {
    proc.kill('SIGKILL');
    throw err;
  }
  return { proc, port, url: `ws://127.0.0.1:${port}` };
}
