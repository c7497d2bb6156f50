/** The server the data benches share: a fresh app on an empty data folder (SQLite) or schema (PostgreSQL). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { removeTestStorage } from '../helpers/db.ts';

export type BenchDialect = 'sqlite' | 'postgres';

/**
 * A fresh server of this repository (no client, no logger) for a bench named `name`: on SQLite in a
 * new temporary folder, on PostgreSQL in a new schema of TEST_DATABASE_URL's database. `remove()`
 * drops both afterwards.
 */
export async function benchServer(dialect: BenchDialect, name: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `lc-bench-${name}-`));
  const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${name}_${Date.now().toString(36)}`;
  const app = await buildApp(
    loadConfig(
      {},
      {
        dataDir,
        clientDir: path.join(dataDir, 'none'),
        ...(dialect === 'postgres' ? { databaseUrl: pgUrl, databaseSchema: schema } : {}),
      },
    ),
    { logger: false },
  );
  const remove = () =>
    removeTestStorage(
      dataDir,
      dialect === 'postgres' ? pgUrl : undefined,
      dialect === 'postgres' ? schema : undefined,
    );
  return { app, dataDir, remove };
}
