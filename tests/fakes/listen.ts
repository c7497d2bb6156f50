/** A tiny HTTP server on a free loopback port, for the providers' fakes. */
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listen(handler: http.RequestListener): Promise<Listening> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** An RSA-2048 key pair as PEM (test keys, made fresh for each fake). */
export function rsaPair(): { privateKey: string; publicKey: string } {
  const k = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: k.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
