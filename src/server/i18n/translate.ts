/**
 * Machine translation behind one interface (runtime spec: POST /api/common/utils/translate {map, to,
 * from}). The server chooses the provider from its config; with none configured the call answers
 * TRANSLATE_UNAVAILABLE (2080) rather than pretending.
 */
import type { Config } from '../config.ts';
import { AppError, E, fail } from '../errors.ts';

export interface TranslateProvider {
  readonly name: string;
  /** Translates every text of `map` (id → text) from `from` (or detected) to `to`; answers id → text. */
  translate(
    map: Record<string, string>,
    to: string,
    from: string | undefined,
  ): Promise<Record<string, string>>;
}

/** No service configured: every call is refused with its code. */
class NoProvider implements TranslateProvider {
  readonly name = 'none';
  translate(): Promise<Record<string, string>> {
    return fail(E.TRANSLATE_UNAVAILABLE, 'set TRANSLATE_PROVIDER (see README "Translations")');
  }
}

/**
 * Test mode only: a marker "translation" (`[to] text`), so tests and the e2e can see that texts went
 * through the provider and came back under their ids.
 */
class TestProvider implements TranslateProvider {
  readonly name = 'test';
  async translate(map: Record<string, string>, to: string): Promise<Record<string, string>> {
    return Object.fromEntries(Object.entries(map).map(([id, text]) => [id, `[${to}] ${text}`]));
  }
}

/** Our language codes → ISO 639-1 codes the common services use. */
const ISO: Record<string, string> = { jp: 'ja', vie: 'vi', yue: 'zh', zh: 'zh', en: 'en' };
const iso = (code: string) => ISO[code] ?? code.split('-')[0]!;

/** A LibreTranslate-compatible server (POST {url}/translate {q: [...], source, target}). */
class LibreProvider implements TranslateProvider {
  readonly name = 'libre';
  constructor(
    private readonly url: string,
    private readonly key: string | undefined,
    private readonly timeoutMs: number,
  ) {}
  async translate(map: Record<string, string>, to: string, from: string | undefined) {
    const ids = Object.keys(map);
    if (ids.length === 0) return {};
    let answer: unknown;
    try {
      const res = await fetch(`${this.url}/translate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          q: ids.map((id) => map[id]),
          source: from ? iso(from) : 'auto',
          target: iso(to),
          format: 'text',
          ...(this.key ? { api_key: this.key } : {}),
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) fail(E.TRANSLATE_FAILED, `HTTP ${res.status}`);
      answer = await res.json();
    } catch (e) {
      if (e instanceof AppError) throw e;
      fail(E.TRANSLATE_FAILED, e instanceof Error ? e.message.slice(0, 200) : 'no answer');
    }
    const texts = (answer as { translatedText?: unknown })?.translatedText;
    if (!Array.isArray(texts) || texts.length !== ids.length) fail(E.TRANSLATE_FAILED, 'unexpected answer');
    return Object.fromEntries(
      ids.map((id, i) => [id, typeof texts[i] === 'string' ? (texts[i] as string) : map[id]!]),
    );
  }
}

/** The provider the config names (the test provider only in test mode). */
export function translateProvider(config: Config): TranslateProvider {
  const t = config.translate;
  if (t.provider === 'test' && config.testOutbox) return new TestProvider();
  if (t.provider === 'libre' && t.url) return new LibreProvider(t.url, t.key, t.timeoutMs);
  return new NoProvider();
}
