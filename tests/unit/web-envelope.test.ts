import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nativeEnvelope, openValue, sealValue } from '../../src/client/api/web-envelope.ts';
import { EnvelopeError, open, seal, sealText } from '../../src/shared/envelope.ts';
import { failedOpens, ENVELOPE_TOKEN as TOKEN } from '../helpers/envelope-cases.ts';

/** Node 20 has WebCrypto and the compression streams, as browsers in a secure context do. */
describe('the browser envelope on WebCrypto and compression streams', () => {
  it('runs on the native primitives here', () => {
    expect(nativeEnvelope()).toBe(true);
  });

  it('opens what the pure-JS / server format seals, and seals what it opens (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.option(fc.string({ maxLength: 40 })), async (value, token) => {
        const expected = JSON.parse(JSON.stringify(value)) as unknown;
        expect(await openValue(seal(value, token), token)).toEqual(expected);
        expect(open(await sealValue(value, token), token)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('round trips unicode and a large payload, and seals undefined as null', async () => {
    const value = { text: '中文 😀 \u0000 \u2028', rows: Array.from({ length: 20_000 }, (_, i) => ({ i })) };
    expect(await openValue(await sealValue(value, TOKEN), TOKEN)).toEqual(value);
    expect(open(await sealValue(undefined, TOKEN), TOKEN)).toBeNull();
  });

  it('a short token (or none) uses the default key, as the format says', async () => {
    expect(await openValue(seal({ ok: 1 }, 'short'), undefined)).toEqual({ ok: 1 });
    expect(open(await sealValue({ ok: 1 }, null), 'other')).toEqual({ ok: 1 });
    await expect(openValue(seal({ ok: 1 }, TOKEN), 'short')).rejects.toBeInstanceOf(EnvelopeError);
  });

  it('the payload just under the limit still opens', async () => {
    const text = JSON.stringify('x'.repeat(1024 * 1024));
    expect(await openValue(sealText(text, TOKEN), TOKEN)).toBe(JSON.parse(text));
  });

  it.each(failedOpens(openValue))('refuses %s with the one EnvelopeError', async (_label, attempt) => {
    const caught = await Promise.resolve()
      .then(attempt)
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(caught).toBeInstanceOf(EnvelopeError);
    expect((caught as Error).message).toBe('invalid envelope');
  });
});

describe('without WebCrypto (a page over plain http from another host)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('loads the pure-JS primitives and speaks the same format', async () => {
    const getRandomValues = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
    vi.stubGlobal('crypto', { getRandomValues });
    expect(nativeEnvelope()).toBe(false);
    const sealed = await sealValue({ a: [1, '二'] }, TOKEN);
    expect(open(sealed, TOKEN)).toEqual({ a: [1, '二'] });
    expect(await openValue(seal({ b: 2 }, TOKEN), TOKEN)).toEqual({ b: 2 });
    await expect(openValue(sealed, 'another-token-of-16+')).rejects.toBeInstanceOf(EnvelopeError);
  });
});
