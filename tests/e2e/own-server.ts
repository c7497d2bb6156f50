/**
 * A server process of the test's own (not Playwright's web server), so a test can stop it, kill it
 * with SIGKILL and start it again on the same data folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export class OwnServer {
  proc: ChildProcess | null = null;
  private constructor(
    readonly port: number,
    readonly dataDir: string,
    readonly env: Record<string, string>,
  ) {}

  /** `env`: settings of the test's own (e.g. payment providers pointing at local fakes). */
  static async create(env: Record<string, string> = {}): Promise<OwnServer> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-e2e-own-'));
    return new OwnServer(await freePort(), dataDir, env);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: root,
      stdio: 'ignore',
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        TEST_OUTBOX: '1',
        ADMIN_ACCOUNT: 'builder',
        ADMIN_PASSWORD: 'builder123',
        LOG_LEVEL: 'warn',
        RATE_LOGIN: '1000',
        RATE_VERIFY_CODE: '1000',
        RATE_CAPTCHA: '1000',
        RATE_LOGIN_ADDRESS: '1000',
        RATE_LOGIN_ACCOUNT: '1000',
        ...this.env,
      },
    });
    const end = Date.now() + 60_000;
    for (;;) {
      try {
        const res = await fetch(`${this.url}/api/health`);
        if (res.ok) return;
      } catch {
        // not up yet
      }
      if (Date.now() > end) throw new Error('own server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Stop: SIGTERM waits for a graceful shutdown, SIGKILL does not. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill(signal);
    });
    this.proc = null;
  }

  async dispose(): Promise<void> {
    await this.stop('SIGKILL');
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
