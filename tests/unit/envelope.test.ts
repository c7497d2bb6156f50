import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EnvelopeError, envelopeKey, open, openText, seal, sealText } from '../../src/shared/envelope.ts';
import { ENVELOPE_TOKEN, failedOpens } from '../helpers/envelope-cases.ts';

const TOKEN = ENVELOPE_TOKEN;

/** The one error every failed open must throw, identical in class and message. */
function expectEnvelopeError(f: () => unknown): void {
  let caught: unknown;
  try {
    f();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(EnvelopeError);
  const e = caught as EnvelopeError;
  expect(e.name).toBe('EnvelopeError');
  expect(e.message).toBe(new EnvelopeError().message);
  expect(e.message).toBe('invalid envelope');
  expect(e.cause).toBeUndefined();
}

describe('seal / open', () => {
  it('round trips any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.string({ minLength: 0, maxLength: 40 })), (value, token) => {
        const expected = JSON.parse(JSON.stringify(value)) as unknown;
        expect(open(seal(value, token), token)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('round trips unicode and a large payload', () => {
    const value = { text: '中文 😀 \u0000 \u2028', rows: Array.from({ length: 5000 }, (_, i) => ({ i })) };
    expect(open(seal(value, TOKEN), TOKEN)).toEqual(value);
  });

  it('seals undefined as null', () => {
    expect(open(seal(undefined, TOKEN), TOKEN)).toBeNull();
  });

  it('sealing twice gives different texts (fresh IV)', () => {
    expect(seal({ a: 1 }, TOKEN)).not.toBe(seal({ a: 1 }, TOKEN));
  });

  it('openText answers the JSON text', () => {
    expect(openText(sealText('{"a":1}', TOKEN), TOKEN)).toBe('{"a":1}');
  });
});

describe('keys', () => {
  it('a token shorter than 16 characters uses the default key', () => {
    const short = 'short-token';
    expect(envelopeKey(short)).toEqual(envelopeKey(undefined));
    expect(envelopeKey('')).toEqual(envelopeKey(null));
    expect(envelopeKey('x'.repeat(15))).toEqual(envelopeKey(undefined));
    // So any short token (or none) opens what another short token sealed.
    expect(open(seal({ ok: 1 }, short), undefined)).toEqual({ ok: 1 });
    expect(open(seal({ ok: 1 }, undefined), 'other')).toEqual({ ok: 1 });
  });

  it('a 16-character token has its own key', () => {
    expect(envelopeKey('x'.repeat(16))).not.toEqual(envelopeKey(undefined));
    expect(envelopeKey('x'.repeat(16))).not.toEqual(envelopeKey('y'.repeat(16)));
    expect(envelopeKey(TOKEN)).toHaveLength(16);
  });
});

describe('every failed open throws the one EnvelopeError', () => {
  const cases = failedOpens(open);
  const good = seal({ hello: 'world', n: [1, 2, 3] }, TOKEN);

  it.each(cases)('%s', (_label, f) => {
    expectEnvelopeError(f);
  });

  it('openText fails the same way as open', () => {
    expectEnvelopeError(() => openText('AAAA', TOKEN));
    expectEnvelopeError(() => openText(good, 'another-token-of-16+'));
  });

  it('the payload just under the limit still opens', () => {
    const text = JSON.stringify('x'.repeat(1024 * 1024));
    expect(openText(sealText(text, TOKEN), TOKEN)).toBe(text);
  });
});
