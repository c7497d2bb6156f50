/** What a role grants and where it lands: the defensive parse of the JSON columns of `roles`. */

import {
  GRANT_KINDS,
  type Grants,
  HOME_TYPES,
  type RoleHome,
  type RoleOptions,
} from '../../shared/api/access.ts';
import type { RolesTable } from '../db/schema.ts';

export type { GrantKind, Grants, RoleHome, RoleOptions } from '../../shared/api/access.ts';
export { GRANT_KINDS, HOME_TYPES };

export type RoleRow = RolesTable;

function parse(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function emptyGrants(): Grants {
  return { route: [], program: [], entity: [], shortcut: [], dataset: [], page: [], simple: [] };
}

/** Grants as stored, cleaned: unknown kinds and non-string entries are dropped. */
export function parseGrants(text: string | null): Grants {
  const raw = parse(text);
  const out = emptyGrants();
  if (!raw || typeof raw !== 'object') return out;
  for (const kind of GRANT_KINDS) {
    const list = (raw as Record<string, unknown>)[kind];
    if (Array.isArray(list)) out[kind] = list.filter((v): v is string => typeof v === 'string');
  }
  return out;
}

export function parseOptions(text: string | null): RoleOptions {
  const raw = parse(text) as Partial<Record<keyof RoleOptions, unknown>> | null;
  return { apply: raw?.apply === true, enable: raw?.enable === true, reg: raw?.reg === true };
}

export function parseHome(text: string | null): RoleHome | null {
  const raw = parse(text) as { type?: unknown; value?: unknown } | null;
  if (!raw || typeof raw.value !== 'string') return null;
  return (HOME_TYPES as readonly unknown[]).includes(raw.type) ? (raw as RoleHome) : null;
}

/** The role as the API shows it. */
export function publicRole(r: RoleRow, users: string[] = []) {
  return {
    _id: r.id,
    name: r.name,
    type: r.type,
    options: parseOptions(r.options),
    home: parseHome(r.home),
    ...parseGrants(r.grants),
    _user: users,
  };
}
