import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { EnvelopeError, type EnvelopePrimitives, setEnvelopePrimitives } from '../../shared/envelope-core.ts';

/** Node's native AES-GCM and zlib under the shared envelope format (same bytes as the JS ones). */
export const nativePrimitives: EnvelopePrimitives = {
  deriveKey: (secret, salt, info) => new Uint8Array(hkdfSync('sha256', secret, salt, info, 16)),
  encrypt(key, iv, plain) {
    const c = createCipheriv('aes-128-gcm', key, iv);
    const body = Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  },
  decrypt(key, iv, sealed) {
    if (sealed.length < 16) throw new EnvelopeError();
    const d = createDecipheriv('aes-128-gcm', key, iv);
    d.setAuthTag(sealed.subarray(sealed.length - 16));
    const out = Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  },
  gzip: (data) => gzipSync(data, { level: 6 }),
  gunzip(data, size) {
    // maxOutputLength makes zlib stop (and throw) past the announced size instead of inflating a
    // bomb; a shorter result means the trailer lied.
    const out = gunzipSync(data, { maxOutputLength: Math.max(size, 1) });
    if (out.length !== size) throw new EnvelopeError();
    return out;
  },
};

export function installNativeEnvelope(): void {
  setEnvelopePrimitives(nativePrimitives);
}
