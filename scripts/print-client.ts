/**
 * The desktop print client (`npm run print-client`): the runtime's local WebSocket protocol (spec:
 * default port 21961; messages carry key, data, uid). It listens on 127.0.0.1 only and accepts pages
 * from the allowed origins only; each `print` message's HTML becomes a PDF (headless Chromium) that
 * goes to the system printer through CUPS `lp` when it is installed, else into a folder.
 *
 * Environment: PRINT_CLIENT_PORT (21961), PRINT_CLIENT_ORIGINS (comma list of allowed page origins,
 * default http://localhost:8080,http://127.0.0.1:8080), PRINT_CLIENT_DIR (./print-output),
 * PRINT_CLIENT_PRINTER (an lp destination; default the system's), PRINT_CLIENT_LP (0 to never use lp),
 * CHROMIUM_PATH (as the server finds Chromium).
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { type WebSocket, WebSocketServer } from 'ws';
import { CHROMIUM_ARGS, findChromium } from '../src/server/print/chromium.ts';
import { PRINT_CLIENT_PORT, PRINT_COPIES_MAX, type PrintClientMessage } from '../src/shared/print.ts';

const MAX_MESSAGE = 16 * 1024 * 1024;

export interface PrintClientOptions {
  port?: number;
  origins?: string[];
  dir?: string;
  printer?: string;
  useLp?: boolean;
  log?: (line: string) => void;
}

function hasLp(): boolean {
  return spawnSync('sh', ['-c', 'command -v lp'], { stdio: 'ignore' }).status === 0;
}

/** Starts the client; resolves once it listens. */
export async function startPrintClient(opts: PrintClientOptions = {}) {
  const port = opts.port ?? PRINT_CLIENT_PORT;
  const origins = new Set(opts.origins ?? ['http://localhost:8080', 'http://127.0.0.1:8080']);
  const dir = path.resolve(opts.dir ?? 'print-output');
  const useLp = (opts.useLp ?? true) && hasLp();
  const log = opts.log ?? ((l: string) => console.log(l));
  let browser: Promise<Browser> | null = null;
  const launch = async () => {
    const executablePath = findChromium();
    if (!executablePath) throw new Error('Chromium is not installed (set CHROMIUM_PATH)');
    if (!browser) {
      const { chromium } = await import('playwright-core');
      browser = chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
      browser.catch(() => (browser = null));
    }
    return browser;
  };

  const toPdf = async (html: string, landscape: boolean): Promise<Buffer> => {
    const b = await launch();
    const context = await b.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      // Nothing the HTML names is fetched: it prints as sent.
      await page.route('**/*', (r) => (r.request().url().startsWith('data:') ? r.continue() : r.abort()));
      await page.setContent(html, { waitUntil: 'load' });
      return await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true, landscape });
    } finally {
      await context.close();
    }
  };

  const output = async (pdf: Buffer, title: string, copies: number) => {
    const safe = title.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'print';
    await fs.promises.mkdir(dir, { recursive: true });
    const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}_${safe}.pdf`);
    await fs.promises.writeFile(file, pdf);
    if (!useLp) return { file };
    const args = ['-n', String(copies), '-t', title.slice(0, 100) || 'print'];
    if (opts.printer) args.push('-d', opts.printer);
    args.push(file);
    const job = await new Promise<string>((resolve, reject) =>
      execFile('lp', args, { timeout: 30_000 }, (err, stdout) =>
        err ? reject(err) : resolve(stdout.trim()),
      ),
    );
    return { file, job };
  };

  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port,
    maxPayload: MAX_MESSAGE,
    // Only pages of the allowed origins may print: another site open in the browser cannot.
    verifyClient: (info: { origin: string }) => origins.has(info.origin),
  });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', () => resolve());
    wss.once('error', reject);
  });

  const send = (ws: WebSocket, m: PrintClientMessage) => ws.send(JSON.stringify(m));
  wss.on('connection', (ws) => {
    ws.on('message', async (raw) => {
      let m: PrintClientMessage;
      try {
        m = JSON.parse(String(raw)) as PrintClientMessage;
      } catch {
        send(ws, { key: 'error', uid: '', data: { msg: 'not JSON' } });
        return;
      }
      const uid = typeof m.uid === 'string' ? m.uid.slice(0, 100) : '';
      if (m.key === 'ping') {
        send(ws, { key: 'pong', uid });
        return;
      }
      if (m.key !== 'print' || typeof m.data?.html !== 'string' || !m.data.html) {
        send(ws, { key: 'error', uid, data: { msg: 'expected {key: "print", uid, data: {html}}' } });
        return;
      }
      const title = typeof m.data.title === 'string' ? m.data.title : 'print';
      const copies = Math.min(PRINT_COPIES_MAX, Math.max(1, Math.floor(Number(m.data.copies) || 1)));
      try {
        const pdf = await toPdf(m.data.html, m.data.landscape === true);
        const done = await output(pdf, title, copies);
        log(`printed ${title} (${copies}) → ${done.job ?? done.file}`);
        send(ws, { key: 'printed', uid, data: done });
      } catch (err) {
        send(ws, { key: 'error', uid, data: { msg: String((err as Error)?.message ?? err).slice(0, 300) } });
      }
    });
  });

  return {
    port,
    dir,
    useLp,
    async close() {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      const b = browser;
      browser = null;
      if (b) await (await b.catch(() => null))?.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  const client = await startPrintClient({
    port: Number(env.PRINT_CLIENT_PORT) || PRINT_CLIENT_PORT,
    ...(env.PRINT_CLIENT_ORIGINS
      ? { origins: env.PRINT_CLIENT_ORIGINS.split(',').map((o) => o.trim().replace(/\/+$/, '')) }
      : {}),
    ...(env.PRINT_CLIENT_DIR ? { dir: env.PRINT_CLIENT_DIR } : {}),
    ...(env.PRINT_CLIENT_PRINTER ? { printer: env.PRINT_CLIENT_PRINTER } : {}),
    useLp: env.PRINT_CLIENT_LP !== '0',
  });
  console.log(
    `print client on ws://127.0.0.1:${client.port} → ${client.useLp ? 'the printer (lp)' : `PDF files in ${client.dir}`}`,
  );
  const stop = () => void client.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
