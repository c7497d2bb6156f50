import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_FEATURES, type AdminFeature } from '../shared/admin/features.ts';
import { type S3Config, s3Config } from './util/object-store.ts';

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
  /** HTTP steps of programs: time limit, answer size cap, `host:port` pairs allowed although private. */
  programHttp: { timeoutMs: number; maxBytes: number; allow: Set<string> };
  /** Points-of-interest providers (`/api/third/lbs/{provider}/poi`). */
  lbs: { weixin: { key: string | undefined; url: string }; timeoutMs: number };
  /** Password-guessing limits of the sign-in call (see account/login-limits.ts). */
  loginLimits: { perAddress: number; perAccount: number; slowdownMs: number };
  /** Events one socket-channel connection may send per 10 s (RATE_SOCKET), and refusals before it is cut. */
  socketRate: { events: number; windowMs: number; strikes: number };
  /** Whether debug answers (plain data beside the sealed one) may be given. */
  allowDebug: boolean;
  /**
   * Indexes that follow use (data/auto-index.ts): a query this slow (AUTO_INDEX_SLOW_MS, default 25)
   * counts toward its shape's index, built after AUTO_INDEX_RECUR (default 3) such runs.
   */
  autoIndex: { slowMs: number; recur: number };
  /** Largest accepted xlsx upload in bytes (IMPORT_LIMIT, default 20 MB). */
  importLimit: number;
  /** Bearer token that may read /metrics (METRICS_TOKEN); unset: loopback only, not behind a proxy. */
  metricsToken: string | undefined;
  /** Behind a reverse proxy (TRUST_PROXY=1): client addresses come from X-Forwarded-For. */
  trustProxy: boolean;
  /** Where providers reach this server (notify URLs, OAuth redirects): PUBLIC_URL, e.g. https://app.example.com. */
  publicUrl: string | undefined;
  /** Alipay (page pay, RSA2); undefined when ALIPAY_APP_ID is unset. */
  alipay: AlipayConfig | undefined;
  /** WeChat Pay API v3 (native pay); undefined when WXPAY_MCH_ID is unset. */
  wxpay: WxpayConfig | undefined;
  /** WeChat website sign-in (OAuth 2, QR connect); undefined when WEIXIN_APPID is unset. */
  weixin: WeixinConfig | undefined;
  /**
   * Machine translation for /system/i18n (TRANSLATE_PROVIDER): `none` (default: the call answers 2080),
   * `libre` (a LibreTranslate-compatible server at TRANSLATE_URL, key TRANSLATE_KEY), or `test` (a
   * marker provider, only in test mode).
   */
  translate: {
    provider: 'none' | 'libre' | 'test';
    url: string | undefined;
    key: string | undefined;
    timeoutMs: number;
  };
  /** WeCom (企业微信) apps by corp id: sign-in, JS-SDK; empty when WXWORK_CORPS is unset. */
  wxwork: WxworkConfig | undefined;
  /**
   * The administration area (shared/admin/features.ts): the features this installation offers
   * (ADMIN_FEATURES, comma list, default all; an unknown name stops the start), debug mode for
   * everyone (ADMIN_DEBUG=1), the key of per-host-and-project debug secrets (DEBUG_SECRET), and
   * whether this is a vendor (private deployment) build (VENDOR_BUILD, default 1: self-hosting is one).
   */
  admin: {
    features: readonly AdminFeature[];
    debug: boolean;
    debugSecret: string | undefined;
    vendor: boolean;
    /** Debug-mode requests (`POST …/debug`) one user may make per project per minute (RATE_DEBUG, default 10). */
    debugRate?: number;
  };
  /** The S3-compatible upload store (`S3_*`, see util/object-store.ts); undefined: the local folder. */
  s3: S3Config | undefined;
}

/** ADMIN_FEATURES read strictly: a misspelt feature is a start error, not a silently hidden screen. */
function adminFeatures(raw: string | undefined): AdminFeature[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'all') return [...ADMIN_FEATURES];
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names)
    if (!(ADMIN_FEATURES as readonly string[]).includes(n))
      throw new Error(`ADMIN_FEATURES: '${n}' is not a feature (${ADMIN_FEATURES.join(', ')})`);
  return ADMIN_FEATURES.filter((f) => names.includes(f));
}

/** One WeCom self-built app: its corp, agent and secret, and the project it opens (if any). */
export interface WxworkCorp {
  corpId: string;
  agentId: string;
  secret: string;
  projectId: string | undefined;
}

export interface WxworkConfig {
  corps: WxworkCorp[];
  /** API host (qyapi): tokens, tickets, code → user id. */
  apiBase: string;
  /** In-app authorise page (open.weixin.qq.com/connect/oauth2/authorize). */
  openBase: string;
  /** Desktop QR sign-in page (login.work.weixin.qq.com/wwlogin/sso/login). */
  loginBase: string;
  /**
   * The JS-SDK scripts a page inside WeCom loads, in order (`WXWORK_JSSDK_URL=a,b`): WeChat's
   * jweixin (wx.config) then WeCom's jwxwork (wx.agentConfig, wx.invoke); the official ones by default.
   */
  jssdkUrls?: string[];
}

export interface WeixinConfig {
  appId: string;
  secret: string;
  /** API host (code → access token); a local fake in tests. */
  apiBase: string;
  /** Where the user authorises (qrconnect page). */
  openBase: string;
  /** The official account (公众号) whose jsapi_ticket signs wxconfig; defaults to appId/secret. */
  mpAppId: string;
  mpSecret: string;
  /** Custom builds' own apps (`WEIXIN_APPS=appid:secret,…`), chosen by a project's weixinAppid. */
  apps: Record<string, string>;
  /** The JS-SDK script a page inside WeChat loads (`WEIXIN_JSSDK_URL`; the official one by default). */
  jssdkUrl?: string;
}

export interface AlipayConfig {
  appId: string;
  /** The application's private key (PEM, PKCS#1 or PKCS#8). */
  privateKey: string;
  /** Alipay's public key (PEM) that notifies are verified with. */
  alipayPublicKey: string;
  gateway: string;
}

export interface WxpayConfig {
  mchId: string;
  appId: string;
  /** Serial number of the merchant API certificate (sent in the Authorization header). */
  serialNo: string;
  /** Merchant API private key (PEM). */
  privateKey: string;
  /** APIv3 key: 32 bytes, decrypts notify resources (AES-256-GCM). */
  apiV3Key: string;
  /** The platform's public key (PEM) and its serial / key id: answers and notifies must be signed by it. */
  platformPublicKey: string;
  platformSerial: string;
  baseUrl: string;
}

/** A key given either as PEM text (\n escapes allowed) or as the path of a PEM file. */
function pem(v: string | undefined): string {
  if (!v) return '';
  if (v.includes('-----BEGIN')) return v.replace(/\\n/g, '\n');
  return fs.readFileSync(path.resolve(v), 'utf8');
}

function alipayConfig(env: NodeJS.ProcessEnv): AlipayConfig | undefined {
  if (!env.ALIPAY_APP_ID) return undefined;
  return {
    appId: env.ALIPAY_APP_ID,
    privateKey: pem(env.ALIPAY_PRIVATE_KEY),
    alipayPublicKey: pem(env.ALIPAY_PUBLIC_KEY),
    gateway: env.ALIPAY_GATEWAY || 'https://openapi.alipay.com/gateway.do',
  };
}

/** The official JS-SDK scripts (WeChat's, and WeCom's which needs WeChat's loaded first). */
export const WEIXIN_JSSDK_URL = 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js';
export const WXWORK_JSSDK_URLS = [
  WEIXIN_JSSDK_URL,
  'https://open.work.weixin.qq.com/wwopen/js/jwxwork-1.0.0.js',
];

/** The JS-SDK scripts pages may load: WeChat's (when WeChat is configured) and WeCom's, in order. */
export function jssdkScripts(c: Pick<Config, 'weixin' | 'wxwork'>): {
  weixin: string | null;
  wxwork: string[];
} {
  return {
    weixin: c.weixin ? (c.weixin.jssdkUrl ?? WEIXIN_JSSDK_URL) : null,
    wxwork: c.wxwork ? (c.wxwork.jssdkUrls ?? WXWORK_JSSDK_URLS) : [],
  };
}

function weixinConfig(env: NodeJS.ProcessEnv): WeixinConfig | undefined {
  if (!env.WEIXIN_APPID) return undefined;
  return {
    appId: env.WEIXIN_APPID,
    secret: env.WEIXIN_SECRET || '',
    apiBase: (env.WEIXIN_API_BASE || 'https://api.weixin.qq.com').replace(/\/+$/, ''),
    openBase: (env.WEIXIN_OPEN_BASE || 'https://open.weixin.qq.com').replace(/\/+$/, ''),
    mpAppId: env.WEIXIN_MP_APPID || env.WEIXIN_APPID,
    mpSecret: env.WEIXIN_MP_SECRET || env.WEIXIN_SECRET || '',
    jssdkUrl: env.WEIXIN_JSSDK_URL || WEIXIN_JSSDK_URL,
    apps: Object.fromEntries(
      (env.WEIXIN_APPS ?? '')
        .split(',')
        .map((p) => p.trim().split(':'))
        .filter((p) => p.length === 2 && p[0] && p[1]),
    ),
  };
}

/** `WXWORK_CORPS=corpid:agentid:secret[:projectId],…` */
function wxworkConfig(env: NodeJS.ProcessEnv): WxworkConfig | undefined {
  const corps = (env.WXWORK_CORPS ?? '')
    .split(',')
    .map((p) => p.trim().split(':'))
    .filter((p) => p.length >= 3 && p[0] && p[1] && p[2])
    .map(
      (p): WxworkCorp => ({
        corpId: p[0] ?? '',
        agentId: p[1] ?? '',
        secret: p[2] ?? '',
        projectId: p[3] || undefined,
      }),
    );
  if (!corps.length) return undefined;
  const base = (v: string | undefined, d: string) => (v || d).replace(/\/+$/, '');
  return {
    corps,
    apiBase: base(env.WXWORK_API_BASE, 'https://qyapi.weixin.qq.com'),
    openBase: base(env.WXWORK_OPEN_BASE, 'https://open.weixin.qq.com'),
    loginBase: base(env.WXWORK_LOGIN_BASE, 'https://login.work.weixin.qq.com'),
    jssdkUrls: env.WXWORK_JSSDK_URL
      ? env.WXWORK_JSSDK_URL.split(',')
          .map((u) => u.trim())
          .filter(Boolean)
      : WXWORK_JSSDK_URLS,
  };
}

function wxpayConfig(env: NodeJS.ProcessEnv): WxpayConfig | undefined {
  if (!env.WXPAY_MCH_ID) return undefined;
  return {
    mchId: env.WXPAY_MCH_ID,
    appId: env.WXPAY_APP_ID || '',
    serialNo: env.WXPAY_SERIAL_NO || '',
    privateKey: pem(env.WXPAY_PRIVATE_KEY),
    apiV3Key: env.WXPAY_API_V3_KEY || '',
    platformPublicKey: pem(env.WXPAY_PLATFORM_PUBLIC_KEY),
    platformSerial: env.WXPAY_PLATFORM_SERIAL || '',
    baseUrl: (env.WXPAY_BASE_URL || 'https://api.mch.weixin.qq.com').replace(/\/+$/, ''),
  };
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
    programHttp: {
      timeoutMs: int(env.PROGRAM_HTTP_TIMEOUT_MS, 10_000),
      maxBytes: int(env.PROGRAM_HTTP_MAX_BYTES, 1024 * 1024),
      allow: new Set(
        (env.PROGRAM_HTTP_ALLOW ?? '')
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
    autoIndex: { slowMs: int(env.AUTO_INDEX_SLOW_MS, 25), recur: Math.max(1, int(env.AUTO_INDEX_RECUR, 3)) },
    importLimit: int(env.IMPORT_LIMIT, 20 * 1024 * 1024),
    metricsToken: env.METRICS_TOKEN || undefined,
    trustProxy: env.TRUST_PROXY === '1',
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    alipay: alipayConfig(env),
    wxpay: wxpayConfig(env),
    weixin: weixinConfig(env),
    translate: {
      provider:
        env.TRANSLATE_PROVIDER === 'libre' || env.TRANSLATE_PROVIDER === 'test'
          ? env.TRANSLATE_PROVIDER
          : 'none',
      url: env.TRANSLATE_URL ? env.TRANSLATE_URL.replace(/\/+$/, '') : undefined,
      key: env.TRANSLATE_KEY || undefined,
      timeoutMs: int(env.TRANSLATE_TIMEOUT_MS, 15_000),
    },
    wxwork: wxworkConfig(env),
    admin: {
      features: adminFeatures(env.ADMIN_FEATURES),
      debug: env.ADMIN_DEBUG === '1',
      debugSecret: env.DEBUG_SECRET || undefined,
      vendor: env.VENDOR_BUILD !== '0',
      debugRate: int(env.RATE_DEBUG, 10),
    },
    s3: s3Config(env),
    ...overrides,
  };
}
