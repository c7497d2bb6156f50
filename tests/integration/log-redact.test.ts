import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { REDACTED, redactUrl } from '../../src/server/http/log-redact.ts';

describe('tokens never reach the request log', () => {
  let app: FastifyInstance;
  let dataDir: string;
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-log-'));
    const config = loadConfig({}, { dataDir, clientDir: path.join(dataDir, 'no-client'), logLevel: 'info' });
    app = await buildApp(config, { logStream: stream });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('redacts query tokens, the token sign-in path and the token header', async () => {
    const secrets = [
      'SECRETq1aaaaaaaaaaaa',
      'SECRETq2bbbbbbbbbbbb',
      'SECRETp3cccccccccccc',
      'SECRETh4dddddddddddd',
    ];
    await app.inject({ method: 'GET', url: `/api/common/user/userInfo?token=${secrets[0]}&mode=pc` });
    await app.inject({ method: 'GET', url: `/yjs/a/b?o_u_token_x=${secrets[1]}` });
    await app.inject({ method: 'GET', url: `/0123456789abcdef01234567/login/${secrets[2]}?x=1` });
    await app.inject({ method: 'GET', url: '/api/common/user/userInfo', headers: { token: secrets[3] } });
    // A co-editing upgrade with its token in the URL (over a real socket).
    const port = (app.server.address() as { port: number }).port;
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/yjs/0123456789abcdef01234567/0123456789abcdef01234567?token=${secrets[0]}`,
    );
    await new Promise<void>((resolve) => {
      ws.on('close', () => resolve());
      ws.on('error', () => resolve());
    });
    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(4);
    for (const s of secrets) expect(text).not.toContain(s);
    // What is not a credential stays readable.
    expect(text).toContain(`/api/common/user/userInfo?token=${REDACTED}&mode=pc`);
    expect(text).toContain(`/0123456789abcdef01234567/login/${REDACTED}?x=1`);
  });

  it('redactUrl keeps everything else as it was', () => {
    expect(redactUrl('/login/register')).toBe('/login/register');
    expect(redactUrl('/p1/login/forget?a=b')).toBe('/p1/login/forget?a=b');
    expect(redactUrl('/login/abc')).toBe(`/login/${REDACTED}`);
    expect(redactUrl('/yjs/p/q?token=t&wx_token=u&wxapp_token=v&page=2')).toBe(
      `/yjs/p/q?token=${REDACTED}&wx_token=${REDACTED}&wxapp_token=${REDACTED}&page=2`,
    );
    expect(redactUrl('/a?%74oken=x')).toBe(`/a?%74oken=${REDACTED}`);
    expect(redactUrl('/api/x?flag&b=1')).toBe('/api/x?flag&b=1');
  });
});
