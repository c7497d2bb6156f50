/**
 * How this installation runs, for /system/deploy: database, Redis, version, this process, and the
 * environment settings a self-hoster sets to move to PostgreSQL + Redis. Secrets never leave the
 * server: connection URLs are answered without their passwords.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';

export interface DeployInfo {
  version: string;
  node: string;
  platform: string;
  database: { kind: 'sqlite' | 'postgres'; version: string; location: string; sizeBytes: number | null };
  redis: { configured: boolean; location: string };
  process: { pid: number; uptimeSeconds: number; rssBytes: number; cpus: number; startedAt: number };
  /** True when the installation can already run several processes (PostgreSQL and Redis both set). */
  multiProcess: boolean;
  /** The settings to move to PostgreSQL + Redis (placeholders where a value must be chosen). */
  env: { name: string; value: string; set: boolean; note: string }[];
}

/** A URL without its password (and user name), for showing where a service lives. */
export function maskUrl(url: string | undefined): string {
  if (!url) return '';
  try {
    const u = new URL(url);
    if (u.password) u.password = '****';
    return u.toString();
  } catch {
    return '(unreadable URL)';
  }
}

let packageVersion: string | null = null;
function version(): string {
  if (packageVersion !== null) return packageVersion;
  try {
    const text = fs.readFileSync(path.resolve(process.cwd(), 'package.json'), 'utf8');
    packageVersion = String((JSON.parse(text) as { version?: unknown }).version ?? 'unknown');
  } catch {
    packageVersion = 'unknown';
  }
  return packageVersion;
}

const startedAt = Date.now() - Math.round(process.uptime() * 1000);

export async function deployInfo(config: Config, database: Database): Promise<DeployInfo> {
  const pg = database.dialect === 'postgres';
  const v = pg
    ? await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(database.db)
    : await sql<{ v: string }>`SELECT sqlite_version() AS v`.execute(database.db);
  const file = path.join(config.dataDir, 'app.db');
  let sizeBytes: number | null = null;
  if (!pg) {
    try {
      sizeBytes = fs.statSync(file).size;
    } catch {
      sizeBytes = null;
    }
  }
  const redis = !!config.redisUrl;
  return {
    version: version(),
    node: process.version,
    platform: `${os.type()} ${os.release()} (${process.arch})`,
    database: {
      kind: database.dialect,
      version: String(v.rows[0]?.v ?? ''),
      location: pg ? maskUrl(config.databaseUrl) : file,
      sizeBytes,
    },
    redis: { configured: redis, location: maskUrl(config.redisUrl) },
    process: {
      pid: process.pid,
      uptimeSeconds: Math.round(process.uptime()),
      rssBytes: process.memoryUsage().rss,
      cpus: os.cpus().length,
      startedAt,
    },
    multiProcess: pg && redis,
    env: [
      {
        name: 'DATABASE_URL',
        value: pg ? maskUrl(config.databaseUrl) : 'postgres://USER:PASSWORD@HOST:5432/DBNAME',
        set: pg,
        note: 'noteDatabase',
      },
      {
        name: 'REDIS_URL',
        value: redis ? maskUrl(config.redisUrl) : 'redis://HOST:6379',
        set: redis,
        note: 'noteRedis',
      },
      { name: 'DATA_DIR', value: config.dataDir, set: true, note: 'noteDataDir' },
      { name: 'PORT', value: String(config.port), set: true, note: 'notePort' },
      {
        name: 'TRUST_PROXY',
        value: config.trustProxy ? '1' : '0',
        set: config.trustProxy,
        note: 'noteProxy',
      },
      {
        name: 'PUBLIC_URL',
        value: config.publicUrl ?? 'https://app.example.com',
        set: !!config.publicUrl,
        note: 'notePublic',
      },
      {
        name: 'METRICS_TOKEN',
        value: config.metricsToken ? '****' : '(random text)',
        set: !!config.metricsToken,
        note: 'noteMetrics',
      },
    ],
  };
}
