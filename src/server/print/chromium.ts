/**
 * Server-mode printing: print pages rendered to PDF by a headless Chromium and joined into one file.
 * Chromium is found at `CHROMIUM_PATH`, else the first of the usual install paths that exists
 * (Debian's /usr/bin/chromium first); without one, server mode answers 2123.
 */
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { AppError, E, fail } from '../errors.ts';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** Prints rendered at once by one process; more wait for none and answer 2125. */
const PARALLEL = 2;
const PAGE_TIMEOUT_MS = 60_000;

/** The Chromium executable, or null when none is installed. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env.CHROMIUM_PATH;
  if (configured !== undefined) return configured && fs.existsSync(configured) ? configured : null;
  return CANDIDATES.find((p) => fs.existsSync(p)) ?? null;
}

export interface RenderJob {
  /** Absolute URLs of the print pages, in order. */
  urls: string[];
  /** The caller's session token, so the pages load with the caller's own rights. */
  token: string | null;
  landscape?: boolean;
  /** The language of the page numbers designed pages get (default en). */
  lang?: 'zh' | 'en';
}

/**
 * Chromium's footer for a designed page: "Page i / n" of that page's own sheets, like the A4 modal's
 * sheets (those number themselves, so plain print documents get no footer).
 */
export function pageFooter(lang: 'zh' | 'en' = 'en'): string {
  const i = '<span class="pageNumber"></span>';
  const n = '<span class="totalPages"></span>';
  return (
    '<div style="width:100%;font-size:8px;color:#444;text-align:center;font-family:sans-serif">' +
    (lang === 'zh' ? `第 ${i} / ${n} 页` : `Page ${i} / ${n}`) +
    '</div>'
  );
}

export class PdfRenderer {
  private browser: Promise<Browser> | null = null;
  private running = 0;

  private async launch(): Promise<Browser> {
    const executablePath = findChromium();
    if (!executablePath) fail(E.PRINT_CHROMIUM_MISSING);
    if (!this.browser) {
      const { chromium } = await import('playwright-core');
      this.browser = chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
      this.browser.then(
        (b) => b.on('disconnected', () => (this.browser = null)),
        () => (this.browser = null),
      );
    }
    return this.browser;
  }

  /** One PDF of every page's sheets, in order. */
  async render(job: RenderJob): Promise<Uint8Array> {
    if (this.running >= PARALLEL) fail(E.PRINT_BUSY);
    this.running++;
    try {
      const browser = await this.launch();
      const context = await browser.newContext();
      try {
        if (job.token) {
          await context.addInitScript((t: string) => {
            try {
              localStorage.setItem('token', t);
            } catch {
              /* no storage: the page asks to sign in and fails below */
            }
          }, job.token);
        }
        // pdf-lib is read on the first server-mode print, not at start.
        const { PDFDocument } = await import('pdf-lib');
        const out = await PDFDocument.create();
        for (const url of job.urls) {
          const page = await context.newPage();
          try {
            await page.goto(url, { timeout: PAGE_TIMEOUT_MS });
            await page.waitForSelector('html[data-print-ready]', {
              timeout: PAGE_TIMEOUT_MS,
              state: 'attached',
            });
            const state = await page.evaluate(() => document.documentElement.dataset.printReady);
            if (state !== '1') fail(E.PRINT_RENDER_FAILED, `${new URL(url).pathname}: ${state}`);
            const designed = !new URL(url).pathname.endsWith('/print/-');
            const pdf = await page.pdf({
              format: 'A4',
              printBackground: true,
              preferCSSPageSize: true,
              ...(job.landscape ? { landscape: true } : {}),
              ...(designed
                ? {
                    displayHeaderFooter: true,
                    headerTemplate: '<span></span>',
                    footerTemplate: pageFooter(job.lang),
                    margin: { top: '10mm', bottom: '14mm', left: '10mm', right: '10mm' },
                  }
                : {}),
            });
            const doc = await PDFDocument.load(pdf);
            for (const p of await out.copyPages(doc, doc.getPageIndices())) out.addPage(p);
          } finally {
            await page.close();
          }
        }
        return await out.save();
      } finally {
        await context.close();
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      fail(E.PRINT_RENDER_FAILED, String((err as Error)?.message ?? err).slice(0, 200));
    } finally {
      this.running--;
    }
  }

  async close(): Promise<void> {
    const b = this.browser;
    this.browser = null;
    if (b) await (await b.catch(() => null))?.close();
  }
}
