/** A browser for the OAuth tests: its own OAuth cookie, following the app → provider → app redirects. */
import type { TestApp } from './app.ts';

export class Browser {
  jar = '';
  constructor(
    private readonly t: () => TestApp,
    private readonly ua = 'Mozilla/5.0',
  ) {}
  async get(url: string) {
    const headers: Record<string, string> = { 'user-agent': this.ua };
    if (this.jar) headers.cookie = this.jar;
    const r = await this.t().app.inject({ method: 'GET', url, headers });
    const set = r.headers['set-cookie'];
    if (set) this.jar = String(set).split(';')[0]!;
    return r;
  }
  /** Start at our URL, let the provider authorise, and answer our callback's response. */
  async trip(url: string) {
    const start = await this.get(url);
    if (start.statusCode !== 302) return { start, back: '', end: start };
    const provider = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(String(provider.headers.get('location')));
    const end = await this.get(back.pathname + back.search);
    return { start, back: back.pathname + back.search, end };
  }
}

/** Where a redirect answer sends the browser. */
export const landing = (r: { headers: Record<string, unknown> }, base = 'http://app.test') =>
  new URL(String(r.headers.location), base);
