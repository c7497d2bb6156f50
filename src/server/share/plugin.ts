import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Actor, authorize } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import type { ShareItemsTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { anyObj, id, obj, ok, str } from '../http/schemas.ts';

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
export const SHARE_TYPES = ['project', 'public', 'private'] as const;
type ShareType = (typeof SHARE_TYPES)[number];

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

const isManager = (a: Actor) => a.kind === 'owner' || a.kind === 'admin';

/** The owner column: private items belong to the caller; others to nobody (''). */
function ownerOf(type: ShareType, actor: Actor): string {
  if (type !== 'private') return '';
  if (!actor.userId) fail(E.AUTH_REQUIRED);
  return actor.userId;
}

function mayWrite(type: ShareType, actor: Actor, existing?: ShareItemsTable): void {
  if (!actor.userId) fail(E.AUTH_REQUIRED);
  if (type === 'project' && !isManager(actor)) fail(E.FORBIDDEN, 'project items are changed by builders');
  if (type === 'public' && existing && existing.created_by !== actor.userId && !isManager(actor)) {
    fail(E.FORBIDDEN, 'only its creator or a builder may change a public item');
  }
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

export default async function sharePlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const base = '/api/app/share/:project';
  const actorOf = async (request: FastifyRequest) =>
    authorize(request, (request.params as { project: string }).project, { kind: 'app' });

  const find = (projectId: string, model: string, type: string, owner: string, key: string) =>
    db
      .selectFrom('share_items')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('model', '=', model)
      .where('type', '=', type as ShareType)
      .where('owner_id', '=', owner)
      .where('key', '=', key)
      .executeTakeFirst();

  app.post(
    `${base}/fetch`,
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
        const row = await find(project.id, w.model, w.type, ownerOf(w.type, actor), w.key);
        data[name] = row ? JSON.parse(row.value) : null;
      }
      return { error: 0, data };
    },
  );

  app.post(
    `${base}/:model/:type/query`,
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
      const rows = await db
        .selectFrom('share_items')
        .select(['key', 'value'])
        .where('project_id', '=', project.id)
        .where('model', '=', model)
        .where('type', '=', type)
        .where('owner_id', '=', ownerOf(type, actor))
        .orderBy('key')
        .limit(1000)
        .execute();
      return {
        error: 0,
        data: rows.filter((r) => match(r.key)).map((r) => ({ _key: r.key, _value: JSON.parse(r.value) })),
      };
    },
  );

  async function write(request: FastifyRequest, mustExist: boolean) {
    const { project, actor } = await actorOf(request);
    const { model, type, key } = request.params as { model: string; type: ShareType; key: string };
    const owner = ownerOf(type, actor);
    const existing = await find(project.id, model, type, owner, key);
    mayWrite(type, actor, existing);
    if (mustExist && !existing) fail(E.SHARE_NOT_FOUND);
    const value = encode((request.body as { value?: unknown }).value);
    const now = Date.now();
    if (existing) {
      await db
        .updateTable('share_items')
        .set({ value, updated_at: now })
        .where('project_id', '=', project.id)
        .where('model', '=', model)
        .where('type', '=', type)
        .where('owner_id', '=', owner)
        .where('key', '=', key)
        .execute();
    } else {
      await db
        .insertInto('share_items')
        .values({
          project_id: project.id,
          model,
          type,
          owner_id: owner,
          key,
          value,
          created_by: actor.userId,
          updated_at: now,
        })
        .execute();
    }
    return { error: 0, data: { _key: key, _value: JSON.parse(value) } };
  }

  const valueBody = obj({ 'value?': {} });
  app.post(
    `${base}/:model/:type/:key`,
    {
      schema: { tags, params: itemParams, body: valueBody, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    (request) => write(request, false),
  );
  app.post(
    `${base}/:model/:type/:key/update`,
    {
      schema: { tags, params: itemParams, body: valueBody, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    (request) => write(request, true),
  );
  app.get(
    `${base}/:model/:type/:key/remove`,
    { schema: { tags, params: itemParams, response: { 200: ok(anyObj()) } }, preHandler: optionalUser },
    async (request) => {
      const { project, actor } = await actorOf(request);
      const { model, type, key } = request.params as { model: string; type: ShareType; key: string };
      const owner = ownerOf(type, actor);
      const existing = await find(project.id, model, type, owner, key);
      if (!existing) fail(E.SHARE_NOT_FOUND);
      mayWrite(type, actor, existing);
      await db
        .deleteFrom('share_items')
        .where('project_id', '=', project.id)
        .where('model', '=', model)
        .where('type', '=', type)
        .where('owner_id', '=', owner)
        .where('key', '=', key)
        .execute();
      return { error: 0, data: { removed: true } };
    },
  );

  // Auto-numbering: `next` takes the following number atomically; builders reset counters.
  const incBody = obj({ key: keySchema });
  app.post(
    `${base}/increment/next`,
    {
      schema: { tags, params: obj({ project: id() }), body: incBody, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await actorOf(request);
      if (!actor.userId) fail(E.AUTH_REQUIRED);
      const { key } = request.body as { key: string };
      const row = await db
        .insertInto('share_increments')
        .values({ project_id: project.id, key, value: 1 })
        .onConflict((oc) =>
          oc
            .columns(['project_id', 'key'])
            .doUpdateSet((eb) => ({ value: eb('share_increments.value', '+', 1) })),
        )
        .returning('value')
        .executeTakeFirstOrThrow();
      return { error: 0, data: { _key: key, _value: Number(row.value) } };
    },
  );
  app.post(
    `${base}/increment/reset`,
    {
      schema: { tags, params: obj({ project: id() }), body: incBody, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await actorOf(request);
      if (!isManager(actor)) fail(actor.userId ? E.FORBIDDEN : E.AUTH_REQUIRED);
      const { key } = request.body as { key: string };
      await db
        .deleteFrom('share_increments')
        .where('project_id', '=', project.id)
        .where('key', '=', key)
        .execute();
      return { error: 0, data: { _key: key, _value: 0 } };
    },
  );
  // Restore counters from the values a client kept (e.g. after an import): {map: {key: value}}.
  app.post(
    `${base}/increment/resetFromCache`,
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
      if (!isManager(actor)) fail(actor.userId ? E.FORBIDDEN : E.AUTH_REQUIRED);
      const { map } = request.body as { map: Record<string, number> };
      for (const key of Object.keys(map))
        if (key.length < 1 || key.length > 128) fail(E.INVALID_FIELD, 'map: key length');
      await db.transaction().execute(async (trx) => {
        for (const [key, value] of Object.entries(map)) {
          await trx
            .insertInto('share_increments')
            .values({ project_id: project.id, key, value })
            .onConflict((oc) => oc.columns(['project_id', 'key']).doUpdateSet({ value }))
            .execute();
        }
      });
      return { error: 0, data: map };
    },
  );
}
