/**
 * Browser tests: Debian's Chromium against the real server (built client, fresh SQLite data folder,
 * test outbox on). `npm run test:e2e` builds the client first.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A port nobody listens on now (asked of the OS in a child, since config loading is synchronous). */
function freePort(): string {
  return execFileSync(
    process.execPath,
    [
      '-e',
      "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
    ],
    { encoding: 'utf8' },
  ).trim();
}

// Chosen once in the runner; workers load this file again and inherit the environment.
process.env.E2E_PORT ||= freePort();
process.env.E2E_DATA_DIR ||= fs.mkdtempSync(path.join(os.tmpdir(), 'lc-e2e-'));
const port = process.env.E2E_PORT;
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(root, 'test-results/e2e'),
  globalTeardown: './global-teardown.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 120_000,
  // The machine is shared: allow slow first paints.
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: {
    baseURL,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    command: 'node dist/server/main.js',
    cwd: root,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      TEST_OUTBOX: '1',
      ADMIN_ACCOUNT: 'builder',
      ADMIN_PASSWORD: 'builder123',
      LOG_LEVEL: 'warn',
      // Every test signs in from the same address: lift the per-minute limits for the run.
      RATE_LOGIN: '1000',
      RATE_VERIFY_CODE: '1000',
      RATE_CAPTCHA: '1000',
      RATE_LOGIN_ADDRESS: '1000',
      RATE_LOGIN_ACCOUNT: '1000',
    },
  },
});
