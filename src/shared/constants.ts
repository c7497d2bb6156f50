/** Constants of the spec ("Business constants and limits") shared by server and client. */

export const TIERS = { trial: 0, basic: 1, enterprise: 2, platform: 3 } as const;
export type Tier = (typeof TIERS)[keyof typeof TIERS];

/** Member and schedule quotas per tier; Infinity means no cap. */
export const QUOTAS: Record<Tier, { members: number; schedules: number }> = {
  0: { members: 5, schedules: 1 },
  1: { members: 20, schedules: 5 },
  2: { members: 200, schedules: 20 },
  3: { members: Number.POSITIVE_INFINITY, schedules: Number.POSITIVE_INFINITY },
};

export const TIER_NAMES: Record<Tier, { zh: string; en: string }> = {
  0: { zh: '体验版', en: 'trial' },
  1: { zh: '基础版', en: 'basic' },
  2: { zh: '企业版', en: 'enterprise' },
  3: { zh: '平台版', en: 'platform' },
};

export const PRICES = { basics: 899, enterprise: 9800, custom: 200000 } as const;

export const REQUEST_TIMEOUT_MS = 120_000;
export const REQUEST_LIMIT = 20;
export const DUPLICATE_SHARE_MS = 2000;
export const QUEUE_WARN_ABOVE = 50;
export const NOTICE_MS = 3000;
export const RECENT_TAGS_LIMIT = 10;
export const RECENT_TOP = 4;
export const DRAFTS_MAX = 10;
export const DRAFT_MAX_CHARS = 102_400;
/** Rows per page when none is asked for (spec: table default page size 20). */
export const PAGE_SIZE_DEFAULT = 20;
/** Live reloads of a table's rows asked within this window are one (spec: table data refresh throttle 100 ms). */
export const TABLE_REFRESH_MS = 100;
/** Rows an all-data query takes (spec: 10000). */
export const QUERY_ALL_LIMIT = 10_000;
/**
 * The most rows one page may ask for: as many as an all-data query. The server clamps to it, the
 * runtime asks for no more, and the widget and page schemas' `maximum` say the same (a test ties them).
 */
export const PAGE_SIZE_MAX = QUERY_ALL_LIMIT;
export const EXPORT_MAX_ROWS = 10_000;
export const EXPORT_MAX_FIELDS = 30;
export const ACCURACY_DEFAULT = 2;
export const UPLOAD_MAX = 20_480;
export const MODAL_WIDTHS = {
  limit: 339,
  help: 535,
  detail: 600,
  a4: 810,
  export: 900,
  template: 400,
} as const;
export const MODAL_Z_INDEX = 4000;
export const SOCKET_HEARTBEAT_MS = 30_000;
export const TIME_ZONE = 'Asia/Shanghai';

/** Verification codes: lifetime, resend cool-down and wrong tries before the code is void. */
export const VERIFY_CODE_TTL_MS = 5 * 60_000;
export const VERIFY_CODE_COOLDOWN_MS = 60_000;
export const VERIFY_CODE_MAX_TRIES = 5;
export const CAPTCHA_TTL_MS = 5 * 60_000;
export const SESSION_TTL_MS = 30 * 24 * 3600_000;

export const VERIFY_TYPES = ['reg', 'reset', 'phone', 'login'] as const;
export type VerifyType = (typeof VERIFY_TYPES)[number];
