/**
 * Feature flags of the administration area (builder spec §2 "Admin menu visibility"): which /system
 * entries and which member/role actions show. Two layers decide: the installation offers features
 * (ADMIN_FEATURES, default all), and each project's owner switches them (shared store, model
 * `config`, type `project`, key `features`: `{flag: boolean}`, a missing flag is on). A flag is on
 * when both say so. Debug mode and early-access mode are the user's local switches; debug mode is
 * available when the installation says so (ADMIN_DEBUG) or with the secret derived from the host
 * and the project (DEBUG_SECRET).
 */

/** The features the spec names, in menu order. */
export const ADMIN_FEATURES = [
  'user',
  'auth',
  'menu',
  'data',
  'schedule',
  'system',
  'i18n',
  'share',
  'selection',
  'deploy',
] as const;
export type AdminFeature = (typeof ADMIN_FEATURES)[number];

/** The actions inside a feature that can be switched on their own (spec: user (…), auth (…)). */
export const FEATURE_PARTS = {
  user: ['create', 'bind', 'public', 'kick', 'change', 'edit'],
  auth: ['member', 'member_handle', 'home', 'grant', 'config'],
} as const satisfies Partial<Record<AdminFeature, readonly string[]>>;

/** Every switchable flag: the features, then `feature.part`. */
export const FEATURE_FLAGS: readonly string[] = [
  ...ADMIN_FEATURES,
  ...Object.entries(FEATURE_PARTS).flatMap(([f, parts]) => parts.map((p) => `${f}.${p}`)),
];

export const FEATURES_MODEL = 'config';
export const FEATURES_KEY = 'features';

export type FeatureFlags = Record<string, boolean>;

/** Why a project's stored switches are not acceptable, or null. */
export function featuresProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected an object of flags';
  for (const [k, on] of Object.entries(v as Record<string, unknown>)) {
    if (!FEATURE_FLAGS.includes(k)) return `'${k.slice(0, 40)}' is not a feature flag`;
    if (typeof on !== 'boolean') return `${k}: true or false`;
  }
  return null;
}

/** Stored switches read defensively: known flags with boolean values only. */
export function readFeatures(v: unknown): FeatureFlags {
  const out: FeatureFlags = {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [k, on] of Object.entries(v as Record<string, unknown>))
    if (FEATURE_FLAGS.includes(k) && typeof on === 'boolean') out[k] = on;
  return out;
}

/**
 * The flags in effect: a feature is on when the installation offers it and the project has not
 * switched it off; a part also needs its feature.
 */
export function effectiveFeatures(installed: readonly string[], stored: FeatureFlags): FeatureFlags {
  const out: FeatureFlags = {};
  for (const f of ADMIN_FEATURES) out[f] = installed.includes(f) && stored[f] !== false;
  for (const [f, parts] of Object.entries(FEATURE_PARTS))
    for (const p of parts) out[`${f}.${p}`] = out[f] === true && stored[`${f}.${p}`] !== false;
  return out;
}

/** What else an entry needs beyond its feature flag. */
export interface EntryNeeds {
  feature?: AdminFeature;
  debug?: boolean;
  early?: boolean;
  vendor?: boolean;
}

export interface AdminContext {
  flags: FeatureFlags;
  debug: boolean;
  early: boolean;
  vendor: boolean;
}

/** Whether an admin entry shows (spec: flags; project and data need debug; simple, increment and deploy need early access, deploy the vendor build). */
export function entryVisible(needs: EntryNeeds, ctx: AdminContext): boolean {
  if (needs.feature && ctx.flags[needs.feature] !== true) return false;
  if (needs.debug && !ctx.debug) return false;
  if (needs.early && !ctx.early) return false;
  if (needs.vendor && !ctx.vendor) return false;
  return true;
}
