import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';
import { open, seal } from '../../src/shared/envelope.ts';
import { postgresUrl, removeTestStorage, type TestDialect } from './db.ts';

export interface TestApp {
  app: FastifyInstance;
  dialect: TestDialect;
  close(): Promise<void>;
}

let seq = 0;

/** A fresh app on its own empty database: a temp SQLite file, or a new PostgreSQL schema. */
export async function createTestApp(dialect: TestDialect, overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-test-'));
  let databaseUrl: string | undefined;
  let databaseSchema: string | undefined;
  if (dialect === 'postgres') {
    databaseUrl = await postgresUrl();
    if (!databaseUrl) throw new Error('PostgreSQL is required for this run but not reachable');
    databaseSchema = `t_${process.pid}_${Date.now().toString(36)}_${seq++}`;
  }
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl,
      databaseSchema,
      clientDir: path.join(dataDir, 'no-client'),
      testOutbox: true,
      rateLimits: { login: 1000, verifyCode: 1000, captcha: 1000, short: 1000, res: 1000, lbs: 1000 },
      loginLimits: { perAddress: 1000, perAccount: 1000, slowdownMs: 1000 },
      ...overrides,
    },
  );
  const app = await buildApp(config, { logger: false });
  await app.ready();
  return {
    app,
    dialect,
    async close() {
      await app.close();
      await removeTestStorage(dataDir, databaseUrl, databaseSchema);
    },
  };
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** Send the body sealed and ask for a sealed answer. */
  sealed?: boolean;
  headers?: Record<string, string>;
}

export interface Answer<T = unknown> {
  status: number;
  error: number;
  data: T;
  msg?: string;
  raw: string;
}

/** Call the app as a client would: `{ error, data }` answers, optionally through the envelope. */
export async function call<T = unknown>(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  opts: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.token = opts.token;
  let payload: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(opts.sealed ? { encrypted: seal(opts.body, opts.token) } : opts.body);
  }
  if (opts.sealed) headers['x-envelope'] = '1';
  const res = await app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
  const json = JSON.parse(res.body) as { error: number; data?: T; msg?: string; encrypted?: string };
  let data = json.data as T;
  if (json.encrypted !== undefined) {
    data = open<{ data: T }>(json.encrypted, opts.token).data;
  }
  return { status: res.statusCode, error: json.error, data, msg: json.msg, raw: res.body };
}

/** Register a user through captcha → verifyCode → reg, answering the account and its token. */
export async function registerUser(
  app: FastifyInstance,
  input: { user: string; pwd: string; phone: string; nickname?: string; project?: string },
  opts: { sealed?: boolean } = {},
): Promise<{ token: string; userId: string }> {
  const code = await requestCode(app, input.phone, 'reg');
  const reg = await call<{ user: { _id: string } }>(app, 'POST', '/api/common/user/reg', {
    body: { ...input, nickname: input.nickname ?? 'Tester', verify: code },
    sealed: opts.sealed,
  });
  if (reg.error !== 0) throw new Error(`reg failed: ${reg.raw}`);
  const login = await call<{ token: string }>(app, 'POST', '/api/common/user/login', {
    body: { user: input.user, pwd: input.pwd },
    sealed: opts.sealed,
  });
  if (login.error !== 0) throw new Error(`login failed: ${login.raw}`);
  return { token: login.data.token, userId: reg.data.user._id };
}

/** Solve a captcha (through the test hook) and ask for a code; answers the code from the outbox. */
export async function requestCode(
  app: FastifyInstance,
  phone: string,
  type: string,
  token?: string,
): Promise<string> {
  const captcha = await call<{ ticket: string }>(app, 'GET', '/api/common/utils/captcha');
  const answer = app.testHooks!.captchas.get(captcha.data.ticket)!;
  const sent = await call(app, 'POST', '/api/common/utils/verifyCode', {
    body: { phone, ticket: captcha.data.ticket, randstr: answer, type },
    token,
  });
  if (sent.error !== 0) throw new Error(`verifyCode failed: ${sent.raw}`);
  const last = [...app.smsOutbox].reverse().find((m) => m.phone === phone && m.type === type);
  if (!last) throw new Error('no code in outbox');
  return last.code;
}
