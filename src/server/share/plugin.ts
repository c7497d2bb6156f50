import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Actor, authorize, decide, type Resource } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok, str } from '../http/schemas.ts';
import type { ProjectRow } from '../project/service.ts';
import { checkShareValue } from './checks.ts';
import {
  findItem,
  type ItemKey,
  listItems,
  nextNumber,
  putItem,
  removeItem,
  resetCounter,
  SHARE_TYPES,
  type ShareType,
  setCounters,
} from './service.ts';

/**
 * The shared key/value service (spec "Shared key/value service"): stored configuration items by
 * model, type and key. Types: `project` (read by everyone in the project, written by builders),
 * `public` (read by everyone, written by any signed-in member; changed or removed only by its
 * creator or a builder), `private` (the signed-in user's own, invisible to others).
 */
export const SHARE_MODELS = [
  'view',
  'filter',
  'i18n',
  'config',
  'route',
  'workflow',
  'label',
  'print',
  'selection',
  'export',
  'graph',
  'chart',
  'field',
] as const;

const MAX_VALUE = 256 * 1024;
const keySchema = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f]+$' };
const itemParams = obj({
  project: id(),
  model: { type: 'string', enum: [...SHARE_MODELS] },
  type: { type: 'string', enum: [...SHARE_TYPES] },
  key: keySchema,
});
const listParams = obj({
  project: id(),
  model: { type: 'string', enum: [...SHARE_MODELS] },
  type: { type: 'string', enum: [...SHARE_TYPES] },
});
const tags = ['share'];

/** The owner column: private items belong to the caller; others to nobody (''). */
function ownerOf(type: ShareType, actor: Actor): string {
  if (type !== 'private') return '';
  if (!actor.userId) fail(E.AUTH_REQUIRED);
  return actor.userId;
}

/** Throw access/decide.ts's denial, if any. */
function allow(actor: Actor, project: ProjectRow, resource: Resource, action: 'read' | 'write'): void {
  const d = decide(actor, project, resource, action);
  if (!d.allow) fail(d.error, d.reason);
}

function encode(value: unknown): string {
  const text = JSON.stringify(value ?? null);
  if (text.length > MAX_VALUE) fail(E.SHARE_TOO_LARGE);
  return text;
}

/**
 * A key filter given as a regular expression. Patterns are short and may not nest quantifiers
 * (`(a+)+`), so a hostile pattern cannot make matching explode; keys are at most 128 characters.
 */
function keyFilter(pattern: string | undefined): (key: string) => boolean {
  if (!pattern) return () => true;
  if (pattern.length > 64 || /\([^)]*[+*}][^)]*\)\s*[+*{?]/.test(pattern))
    fail(E.INVALID_FIELD, 'key: pattern not allowed');
  try {
    const re = new RegExp(pattern);
    return (k) => re.test(k);
  } catch {
    return fail(E.INVALID_FIELD, 'key: not a valid pattern');
  }
}

async function sharePlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const actorOf = async (request: FastifyRequest) =>
    authorize(request, (request.params as { project: string }).project, { kind: 'app' });

  app.post(
    '/:project/fetch',
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: {
          type: 'object',
          maxProperties: 200,
          additionalProperties: obj({
            model: { type: 'string', enum: [...SHARE_MODELS] },
            type: { type: 'string', enum: [...SHARE_TYPES] },
            key: keySchema,
          }),
        },
        response: { 200: ok(anyObj()) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await actorOf(request);
      const wanted = request.body as Record<string, { model: string; type: ShareType; key: string }>;
      const data: Record<string, unknown> = {};
      for (const [name, w] of Object.entries(wanted)) {
        if (w.type === 'private' && !actor.userId) {
          data[name] = null;
          continue;
        }
        const k = {
          projectId: project.id,
          model: w.model,
          type: w.type,
          owner: ownerOf(w.type, actor),
          key: w.key,
        };
        const row = await findItem(db, k);
        data[name] = row ? JSON.parse(row.value) : null;
      }
      return { error: 0, data };
    },
  );

  app.post(
    '/:project/:model/:type/query',
    {
      schema: {
        tags,
        params: listParams,
        body: obj({ 'key?': str(64) }),
        response: { 200: ok({ type: 'array', items: anyObj() }) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await actorOf(request);
      const { model, type } = request.params as { model: string; type: ShareType };
      const match = keyFilter((request.body as { key?: string }).key);
      if (type === 'private' && !actor.userId) return { error: 0, data: [] };
      const rows = await listItems(db, { projectId: project.id, model, type, owner: ownerOf(type, actor) });
      return {
        error: 0,
        data: rows.filter((r) => match(r.key)).map((r) => ({ _key: r.key, _value: JSON.parse(r.value) })),
      };
    },
  );

  /** The item named in the path, for the caller, with the stored row if there is one. */
  async function item(request: FastifyRequest) {
    const { project, actor } = await actorOf(request);
    const { model, type, key } = request.params as { model: string; type: ShareType; key: string };
    const k: ItemKey = { projectId: project.id, model, type, owner: ownerOf(type, actor), key };
    return { project, actor, k, existing: await findItem(db, k) };
  }

  async function write(request: FastifyRequest, mustExist: boolean) {
    const { project, actor, k, existing } = await item(request);
    allow(actor, project, { kind: 'share', type: k.type, createdBy: existing?.created_by }, 'write');
    if (mustExist && !existing) fail(E.SHARE_NOT_FOUND);
    checkShareValue(k.model, k.type, k.key, (request.body as { value?: unknown }).value);
    const value = encode((request.body as { value?: unknown }).value);
    await putItem(db, k, value, !!existing, actor.userId);
    return { error: 0, data: { _key: k.key, _value: JSON.parse(value) } };
  }

  const valueBody = obj({ 'value?': {} });
  app.post(
    '/:project/:model/:type/:key',
    {
      schema: { tags, params: itemParams, body: valueBody, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    (request) => write(request, false),
  );
  app.post(
    '/:project/:model/:type/:key/update',
    {
      schema: { tags, params: itemParams, body: valueBody, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    (request) => write(request, true),
  );
  app.get(
    '/:project/:model/:type/:key/remove',
    { schema: { tags, params: itemParams, response: { 200: ok(anyObj()) } }, preHandler: optionalUser },
    async (request) => {
      const { project, actor, k, existing } = await item(request);
      if (!existing) fail(E.SHARE_NOT_FOUND);
      allow(actor, project, { kind: 'share', type: k.type, createdBy: existing.created_by }, 'write');
      await removeItem(db, k);
      return { error: 0, data: { removed: true } };
    },
  );

  // Auto-numbering: `next` takes the following number atomically; builders reset counters.
  const incBody = obj({ key: keySchema });
  app.post(
    '/:project/increment/next',
    {
      schema: { tags, params: obj({ project: id() }), body: incBody, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await actorOf(request);
      allow(actor, project, { kind: 'counter' }, 'write');
      const { key } = request.body as { key: string };
      return { error: 0, data: { _key: key, _value: await nextNumber(db, project.id, key) } };
    },
  );
  app.post(
    '/:project/increment/reset',
    {
      schema: { tags, params: obj({ project: id() }), body: incBody, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await actorOf(request);
      allow(actor, project, { kind: 'counter', reset: true }, 'write');
      const { key } = request.body as { key: string };
      await resetCounter(db, project.id, key);
      return { error: 0, data: { _key: key, _value: 0 } };
    },
  );
  // Restore counters from the values a client kept (e.g. after an import): {map: {key: value}}.
  app.post(
    '/:project/increment/resetFromCache',
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: obj({
          map: {
            type: 'object',
            maxProperties: 200,
            additionalProperties: { type: 'integer', minimum: 0, maximum: 1e12 },
          },
        }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await actorOf(request);
      allow(actor, project, { kind: 'counter', reset: true }, 'write');
      const { map } = request.body as { map: Record<string, number> };
      for (const key of Object.keys(map))
        if (key.length < 1 || key.length > 128) fail(E.INVALID_FIELD, 'map: key length');
      await setCounters(db, project.id, map);
      return { error: 0, data: map };
    },
  );
}

export default area('lc-share', sharePlugin);
