/**
 * The decisions routes delegate to access/decide.ts for shared items, counters, hidden fields and
 * table writes: one case per (actor, resource, action), with the code a denial carries.
 */
import { describe, expect, it } from 'vitest';
import {
  type Action,
  type Actor,
  type ActorKind,
  decide,
  type Resource,
} from '../../src/server/access/decide.ts';
import { emptyGrants } from '../../src/server/access/grants.ts';
import type { ProjectRow } from '../../src/server/project/service.ts';
import { E } from '../../src/shared/errors.ts';

const project: ProjectRow = {
  id: 'p'.repeat(24),
  name: 'P',
  owner_id: 'o',
  auth: 'public',
  home: '/',
  tier: 0,
  expired_at: null,
  limited: 0,
  custom: '{}',
  options: '{}',
  created_at: 0,
  updated_at: 0,
};

const actor = (kind: ActorKind, userId: string | null = kind === 'public' ? null : `${kind}-id`): Actor => ({
  kind,
  userId,
  role: null,
  grants: { ...emptyGrants(), entity: ['granted'] },
});

type Case = [string, Actor, Resource, Action, number];
const cases: Case[] = [
  ['anyone reads project items', actor('public'), { kind: 'share', type: 'project' }, 'read', 0],
  ['builders write project items', actor('admin'), { kind: 'share', type: 'project' }, 'write', 0],
  ['members do not', actor('common'), { kind: 'share', type: 'project' }, 'write', E.FORBIDDEN.code],
  [
    'anonymous visitors write nothing',
    actor('public'),
    { kind: 'share', type: 'public' },
    'write',
    E.AUTH_REQUIRED.code,
  ],
  [
    'a signed-in visitor creates a public item',
    actor('public', 'v'),
    { kind: 'share', type: 'public' },
    'write',
    0,
  ],
  [
    'its creator changes a public item',
    actor('common'),
    { kind: 'share', type: 'public', createdBy: 'common-id' },
    'write',
    0,
  ],
  [
    'another member does not',
    actor('common'),
    { kind: 'share', type: 'public', createdBy: 'someone' },
    'write',
    E.FORBIDDEN.code,
  ],
  [
    'nor when the creator is unknown',
    actor('common'),
    { kind: 'share', type: 'public', createdBy: null },
    'write',
    E.FORBIDDEN.code,
  ],
  ['a builder does', actor('owner'), { kind: 'share', type: 'public', createdBy: 'someone' }, 'write', 0],
  ['members write their private items', actor('common'), { kind: 'share', type: 'private' }, 'write', 0],
  ['members take numbers', actor('common'), { kind: 'counter' }, 'write', 0],
  ['anonymous visitors do not', actor('public'), { kind: 'counter' }, 'write', E.AUTH_REQUIRED.code],
  ['builders reset counters', actor('admin'), { kind: 'counter', reset: true }, 'write', 0],
  ['members do not', actor('common'), { kind: 'counter', reset: true }, 'write', E.FORBIDDEN.code],
  [
    'nor anonymous visitors',
    actor('public'),
    { kind: 'counter', reset: true },
    'write',
    E.AUTH_REQUIRED.code,
  ],
  ['builders upload', actor('admin'), { kind: 'upload' }, 'write', 0],
  ['members with a granted table upload', actor('common'), { kind: 'upload' }, 'write', 0],
  ['for that table', actor('common'), { kind: 'upload', entity: 'granted' }, 'write', 0],
  ['not for another', actor('common'), { kind: 'upload', entity: 'other' }, 'write', E.FORBIDDEN.code],
  [
    'members without one do not',
    { ...actor('common'), grants: emptyGrants() },
    { kind: 'upload' },
    'write',
    E.UPLOAD_FORBIDDEN.code,
  ],
  ['nor anonymous visitors', actor('public'), { kind: 'upload' }, 'write', E.AUTH_REQUIRED.code],
  ['builders see hidden fields', actor('admin'), { kind: 'hidden-fields', entity: 'granted' }, 'read', 0],
  ['members do not', actor('common'), { kind: 'hidden-fields', entity: 'granted' }, 'read', E.FORBIDDEN.code],
  ['a granted table is written by members', actor('common'), { kind: 'entity', id: 'granted' }, 'write', 0],
  ['and read by anonymous visitors', actor('public'), { kind: 'entity', id: 'granted' }, 'read', 0],
  [
    'but not written by them',
    actor('public'),
    { kind: 'entity', id: 'granted' },
    'write',
    E.AUTH_REQUIRED.code,
  ],
  [
    'a table not granted is refused',
    actor('common'),
    { kind: 'entity', id: 'other' },
    'read',
    E.FORBIDDEN.code,
  ],
];

describe('decide', () => {
  it.each(cases)('%s', (_name, who, resource, action, code) => {
    const d = decide(who, project, resource, action);
    expect(d.allow ? 0 : d.error.code).toBe(code);
  });
});
