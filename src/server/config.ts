import path from 'node:path';

/** Server settings, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… puts all data on PostgreSQL; unset means embedded SQLite under dataDir. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (tests isolate themselves in their own schema). */
  databaseSchema: string | undefined;
  redisUrl: string | undefined;
  logLevel: string;
  /** Where the built client lives; served with history-API fallback when present. */
  clientDir: string;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /** Test mode: SMS codes go to an outbox readable at /api/test/outbox. */
  testOutbox: boolean;
  /** First owner's credentials on an empty data folder (scripted setups). */
  adminAccount: string | undefined;
  adminPassword: string | undefined;
  /** Request limits per minute for the rate-limited account routes. */
  rateLimits: { login: number; verifyCode: number; captcha: number; short: number; res: number; lbs: number };
  /** The remote-image proxy (`/api/common/utils/res`): size cap, time limit, hosts allowed although private. */
  res: { maxBytes: number; timeoutMs: number; allow: Set<string> };
  /** Points-of-interest providers (`/api/third/lbs/{provider}/poi`). */
  lbs: { weixin: { key: string | undefined; url: string }; timeoutMs: number };
  /** Password-guessing limits of the sign-in call (see account/login-limits.ts). */
  loginLimits: { perAddress: number; perAccount: number; slowdownMs: number };
  /** Events one socket-channel connection may send per 10 s (RATE_SOCKET), and refusals before it is cut. */
  socketRate: { events: number; windowMs: number; strikes: number };
  /** Whether debug answers (plain data beside the sealed one) may be given. */
  allowDebug: boolean;
  /** Largest accepted xlsx upload in bytes (IMPORT_LIMIT, default 20 MB). */
  importLimit: number;
  /** Bearer token that may read /metrics (METRICS_TOKEN); unset: loopback only, not behind a proxy. */
  metricsToken: string | undefined;
  /** Behind a reverse proxy (TRUST_PROXY=1): client addresses come from X-Forwarded-For. */
  trustProxy: boolean;
}

function int(v: string | undefined, fallback: number): number {
  const n = v === undefined || v === '' ? Number.NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return {
    port: int(env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    clientDir: path.resolve(env.CLIENT_DIR || './dist/client'),
    bodyLimit: int(env.BODY_LIMIT, 1024 * 1024),
    testOutbox: env.TEST_OUTBOX === '1',
    adminAccount: env.ADMIN_ACCOUNT || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    rateLimits: {
      login: int(env.RATE_LOGIN, 10),
      verifyCode: int(env.RATE_VERIFY_CODE, 5),
      captcha: int(env.RATE_CAPTCHA, 30),
      short: int(env.RATE_SHORT, 30),
      res: int(env.RATE_RES, 300),
      lbs: int(env.RATE_LBS, 60),
    },
    res: {
      maxBytes: int(env.RES_MAX_BYTES, 10 * 1024 * 1024),
      timeoutMs: int(env.RES_TIMEOUT_MS, 10_000),
      allow: new Set(
        (env.RES_ALLOW ?? '')
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      ),
    },
    lbs: {
      weixin: { key: env.LBS_WEIXIN_KEY || undefined, url: env.LBS_WEIXIN_URL || 'https://apis.map.qq.com' },
      timeoutMs: int(env.LBS_TIMEOUT_MS, 8000),
    },
    loginLimits: {
      perAddress: int(env.RATE_LOGIN_ADDRESS, 20),
      perAccount: int(env.RATE_LOGIN_ACCOUNT, 5),
      slowdownMs: int(env.LOGIN_SLOWDOWN_MS, 1000),
    },
    socketRate: { events: int(env.RATE_SOCKET, 100), windowMs: 10_000, strikes: 20 },
    allowDebug: env.ALLOW_DEBUG !== '0',
    importLimit: int(env.IMPORT_LIMIT, 20 * 1024 * 1024),
    metricsToken: env.METRICS_TOKEN || undefined,
    trustProxy: env.TRUST_PROXY === '1',
    ...overrides,
  };
}
