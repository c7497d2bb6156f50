/**
 * Which feature flags (shared/admin/features.ts) a call of the administration needs. The menu hides
 * a switched-off feature's screen; the server refuses the calls only that screen makes (2220), so a
 * hand-made request does no more than the menu allows. Reads other screens and the end users' app
 * depend on (role list, menu list, the shared store's reads) stay open.
 *
 * How the parts read (spec: "user (create, bind, public, kick, change, edit), auth (member,
 * member_handle, home, grant, config)"): user.public activates the public role; user.change moves a
 * member to another role, user.edit renames a sub-user or resets its password; auth.member lists the
 * members' applications to join a role, auth.member_handle approves or rejects them; auth.home sets a
 * role's home, auth.grant its grants, auth.config the per-table settings of a role (default filter,
 * allowed programs). A part is on only while its feature is (effectiveFeatures).
 */
import { FEATURES_KEY, FEATURES_MODEL } from '../../shared/admin/features.ts';
import { I18N_MODEL } from '../../shared/admin/i18n.ts';
import { NUMBERING_MODEL, NUMBERING_PREFIX } from '../../shared/admin/numbering.ts';
import { SELECTION_MODEL } from '../../shared/admin/option-sets.ts';
import { TABLE_CONFIG_PREFIX } from '../../shared/admin/table-config.ts';
import { ROLE_TABLE_PREFIX } from '../access/role-tables.ts';

type Obj = Record<string, unknown>;
type Needs = readonly string[] | ((params: Obj, body: Obj) => readonly string[]);

const U = '/api/admin/user/:project';
const R = '/api/admin/auth/:project/main/role';
const S = '/api/admin/schedule/:project';
const M = '/api/admin/route/:project';
const P = '/api/admin/project/:project';
const X = '/api/admin/data/:project/:entity/indexes';
const SH = '/api/app/share/:project';

const GRANT_KEYS = ['route', 'program', 'entity', 'shortcut', 'dataset', 'page', 'simple'];

/** The role calls that may carry a home: auth.home on top of what the call itself needs. */
const withHome =
  (base: readonly string[]): Needs =>
  (_p, b) =>
    b.home !== undefined ? [...base, 'auth.home'] : base;

/** What a project-scoped write of the shared store belongs to, by model and key. */
function shareNeeds(params: Obj): readonly string[] {
  if (params.type !== 'project') return [];
  const model = String(params.model ?? '');
  const key = String(params.key ?? '');
  if (model === SELECTION_MODEL) return ['share', 'selection'];
  if (model === I18N_MODEL) return ['i18n'];
  if (model === 'workflow') return ['share'];
  if (model === 'filter' && key.startsWith(ROLE_TABLE_PREFIX)) return ['auth.config'];
  if (model === FEATURES_MODEL && key === FEATURES_KEY) return [];
  if (model === NUMBERING_MODEL) {
    if (key.startsWith(TABLE_CONFIG_PREFIX)) return ['data'];
    if (key.startsWith(ROLE_TABLE_PREFIX)) return ['auth.config'];
    if (key.startsWith(NUMBERING_PREFIX) || key === 'global') return ['share'];
  }
  return [];
}

/** Route pattern (with method) → the flags it needs. */
const CALLS: Record<string, Needs> = {
  [`POST ${U}/list`]: ['user'],
  [`GET ${U}/children`]: ['user'],
  [`POST ${U}/create`]: ['user.create'],
  [`POST ${U}/bind`]: ['user.bind'],
  [`POST ${U}/invite`]: ['user'],
  [`GET ${U}/invite/list`]: ['user'],
  [`GET ${U}/invite/:id/open`]: ['user'],
  [`GET ${U}/invite/:id/close`]: ['user'],
  [`GET ${U}/:id/kick`]: ['user.kick'],
  [`GET ${U}/:id/ban`]: ['user'],
  [`GET ${U}/:id/active`]: ['user'],
  [`GET ${U}/:id/remove`]: ['user'],
  [`GET ${U}/:id/token`]: ['user'],
  [`POST ${U}/:id/update`]: (_p, b) => [
    'user',
    ...(b.role !== undefined ? ['user.change'] : []),
    ...(b.pwd !== undefined || b.name !== undefined ? ['user.edit'] : []),
  ],
  [`GET ${U}/apply/list`]: ['auth.member'],
  [`GET ${U}/apply/:id/approve`]: ['auth.member_handle'],
  [`GET ${U}/apply/:id/reject`]: ['auth.member_handle'],
  [`POST ${R}/create`]: withHome(['auth']),
  [`POST ${R}/:id/update`]: withHome(['auth']),
  [`GET ${R}/:id/remove`]: ['auth'],
  [`GET ${R}/public`]: ['user.public'],
  [`POST ${R}/:id/bind`]: (_p, b) => [
    'auth',
    ...(GRANT_KEYS.some((k) => b[k] !== undefined) ? ['auth.grant'] : []),
    ...(b.home !== undefined ? ['auth.home'] : []),
  ],
  [`GET ${R}/:id/table/:entity`]: ['auth.config'],
  [`POST ${R}/:id/table/:entity/programs`]: ['auth.config'],
  'POST /api/admin/view/:project/:entity/role-filter': ['auth.config'],
  [`POST ${M}/create`]: ['menu'],
  [`POST ${M}/sort`]: ['menu'],
  [`POST ${M}/:id/update`]: ['menu'],
  [`POST ${M}/:id/bind`]: ['menu'],
  [`GET ${M}/:id/remove`]: ['menu'],
  [`POST ${S}/set`]: ['schedule'],
  [`GET ${S}/:id`]: ['schedule'],
  [`POST ${S}/:id/update`]: ['schedule'],
  [`GET ${S}/:id/remove`]: ['schedule'],
  [`GET ${S}/:id/toggle`]: ['schedule'],
  [`POST ${S}/:id/log`]: ['schedule'],
  [`GET ${P}/usage`]: ['system'],
  [`GET ${P}/deploy`]: ['deploy'],
  [`GET ${P}/i18n/sources`]: ['i18n'],
  [`POST ${X}`]: ['data'],
  [`POST ${X}/create`]: ['data'],
  [`POST ${X}/:index/pin`]: ['data'],
  [`POST ${X}/:index/remove`]: ['data'],
  [`POST ${SH}/exportProject`]: ['system'],
  [`POST ${SH}/importProject`]: ['system'],
  [`POST ${SH}/importReplaceProject`]: ['system'],
  [`POST ${SH}/increment/reset`]: ['share'],
  [`POST ${SH}/increment/resetFromCache`]: ['share'],
  [`POST ${SH}/:model/:type/:key`]: shareNeeds,
  [`POST ${SH}/:model/:type/:key/update`]: shareNeeds,
  [`GET ${SH}/:model/:type/:key/remove`]: shareNeeds,
};

/** Whether a route (method + pattern) is one whose calls the feature switches may refuse. */
export function isFeatureCall(method: string, url: string): boolean {
  return `${method} ${url}` in CALLS;
}

/** The flags a call needs (all must be on); empty when none. */
export function featureNeeds(method: string, url: string, params: unknown, body: unknown): readonly string[] {
  const needs = CALLS[`${method === 'HEAD' ? 'GET' : method} ${url}`];
  if (!needs) return [];
  if (typeof needs !== 'function') return needs;
  const obj = (v: unknown): Obj =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
  return needs(obj(params), obj(body));
}

/** Every route pattern listed here (a test checks each is a real route). */
export const FEATURE_CALLS: readonly string[] = Object.keys(CALLS);
