import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';

export type TestDialect = 'sqlite' | 'postgres';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.setTimeout(500);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

/**
 * The PostgreSQL URL for integration tests. TEST_DATABASE_URL makes the PostgreSQL run required
 * (CI sets it); without it the local server at 127.0.0.1:5432 is used when it answers.
 */
export async function postgresUrl(): Promise<string | undefined> {
  const required = process.env.TEST_DATABASE_URL;
  if (required) return required;
  return (await reachable('127.0.0.1', 5432)) ? DEFAULT_PG : undefined;
}

/** The dialects the integration suite runs on here. */
export async function testDialects(): Promise<TestDialect[]> {
  return (await postgresUrl()) ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Remove what a test app used: its data folder and, on PostgreSQL, its schema. */
export async function removeTestStorage(
  dataDir: string,
  url: string | undefined,
  schema: string | undefined,
): Promise<void> {
  if (url && schema) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
