/** Signature Version 4 pieces of the object store, against published vectors; keys and URLs. */
import { describe, expect, it } from 'vitest';
import { S3Store, s3Config, signingKey, signString } from '../../src/server/util/object-store.ts';

describe('object store signing', () => {
  it('derives the signing key as the published example does', () => {
    // AWS General Reference, "Examples of how to derive a signing key for Signature Version 4".
    expect(
      signingKey('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', '20120215', 'us-east-1', 'iam').toString('hex'),
    ).toBe('f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d');
  });

  it('signs a policy through the whole HMAC chain', () => {
    // A published step-by-step vector: base64('alpha') signed with secret bravo, date charlie, region delta,
    // service echo (its intermediate step 3 is 00ce876c…, the key for 'charlie').
    expect(signString('bravo', 'charlie', 'delta', 'echo', Buffer.from('alpha').toString('base64'))).toBe(
      '7b9d11447e7bba48ef0d530f49d82de8adfd7b7ae064b144e6ac60d82166e4a6',
    );
  });

  it('answers a policy that pins the folder, the size and the type, valid for 10 minutes', () => {
    const cfg = s3Config({
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'AK',
      S3_SECRET_ACCESS_KEY: 'SK',
    })!;
    expect(cfg).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      publicUrl: 'http://127.0.0.1:9000/b',
    });
    const now = Date.UTC(2026, 0, 27, 1, 2, 3);
    const form = new S3Store(cfg).postForm('0123456789abcdef01234567', 'image', now);
    const policy = JSON.parse(Buffer.from(form.policy, 'base64').toString());
    expect(policy.expiration).toBe('2026-01-27T01:12:03.000Z');
    expect(form.dir).toMatch(/^project\/0123456789abcdef01234567\/main\/image\/20260127\/\d+_[0-9a-f]{32}_$/);
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        { bucket: 'b' },
        ['starts-with', '$key', form.dir],
        ['content-length-range', 1, 20480 * 1024],
        ['starts-with', '$Content-Type', 'image/'],
        { 'x-amz-date': '20260127T010203Z' },
        { 'x-amz-credential': 'AK/20260127/us-east-1/s3/aws4_request' },
      ]),
    );
    expect(form.fields['x-amz-signature']).toBe(signString('SK', '20260127', 'us-east-1', 's3', form.policy));
    expect(s3Config({ S3_ENDPOINT: 'http://x', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'a' })).toBeUndefined();
  });

  it('maps public URLs back to keys of one project only, refusing traversal', () => {
    const s = new S3Store(
      s3Config({
        S3_ENDPOINT: 'http://h',
        S3_BUCKET: 'b',
        S3_ACCESS_KEY_ID: 'a',
        S3_SECRET_ACCESS_KEY: 's',
      })!,
    );
    const p = '0123456789abcdef01234567';
    const key = `project/${p}/main/file/20260127/1_${'a'.repeat(32)}_x.pdf`;
    expect(s.keyOf(s.urlOf(key), p)).toBe(key);
    expect(s.keyOf(s.urlOf(key), 'ffffffffffffffffffffffff')).toBeNull();
    expect(s.keyOf(`http://h/b/project/${p}/main/file/../../x`, p)).toBeNull();
    expect(s.keyOf(`http://h/b/project/${p}/main/file/%2e%2e/x`, p)).toBeNull();
    expect(s.keyOf(`http://other/b/${key}`, p)).toBeNull();
    expect(s.keyOf(`http://h/b/project/${p}/main/file/a%ZZ/x`, p)).toBeNull();
  });
});
