import type { FastifyInstance, FastifyRequest } from 'fastify';
import { projectAccess } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, bool, id, int, obj, ok, str } from '../http/schemas.ts';
import { apiFlow, listFlows } from '../program/service.ts';
import { FIELD_TYPES, type FieldType } from './ddl.ts';
import {
  apiEntity,
  apiField,
  countRows,
  createEntity,
  createField,
  createModule,
  entityRemovalImpact,
  findEntity,
  findField,
  listEntities,
  listFields,
  listModules,
  removeEntity,
  removeField,
  removeModule,
  updateEntity,
  updateField,
  updateModule,
} from './schema-service.ts';

const P = '/api/admin/project/:project';
const entityRef = { type: 'string', minLength: 1, maxLength: 64 };
const confirmQuery = obj({ 'confirm?': { type: 'string', enum: ['0', '1', 'true', 'false'] } });
const list = ok({ type: 'array', items: anyObj() });
const one = ok(anyObj());
const tags = ['data model'];

function confirmed(request: FastifyRequest): boolean {
  const c = (request.query as { confirm?: string }).confirm;
  return c === '1' || c === 'true';
}

/** Modules, entities and fields: the builder's data model; every entity a real table. */
async function schemaPlugin(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;
  const admin = async (request: FastifyRequest) =>
    (await projectAccess(request, (request.params as { project: string }).project, { admin: true })).project;

  app.get(
    `${P}/module`,
    { schema: { tags, params: obj({ project: id() }), response: { 200: list } }, preHandler: requireUser },
    async (request) => {
      const p = await admin(request);
      return { error: 0, data: await listModules(db, p.id) };
    },
  );
  app.post(
    `${P}/module/create`,
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: obj({ name: str(128), 'sort?': int() }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      const b = request.body as { name: string; sort?: number };
      return { error: 0, data: await createModule(db, p.id, b.name, b.sort) };
    },
  );
  app.post(
    `${P}/module/:id/update`,
    {
      schema: {
        tags,
        params: obj({ project: id(), id: id() }),
        body: obj({ 'name?': str(128), 'sort?': int() }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      await updateModule(
        db,
        p.id,
        (request.params as { id: string }).id,
        request.body as { name?: string; sort?: number },
      );
      return { error: 0, data: { updated: true } };
    },
  );
  app.get(
    `${P}/module/:id/remove`,
    {
      schema: { tags, params: obj({ project: id(), id: id() }), response: { 200: one } },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      await removeModule(db, p.id, (request.params as { id: string }).id);
      return { error: 0, data: { removed: true } };
    },
  );

  app.get(
    `${P}/entity`,
    { schema: { tags, params: obj({ project: id() }), response: { 200: list } }, preHandler: requireUser },
    async (request) => {
      const p = await admin(request);
      return { error: 0, data: (await listEntities(db, p.id)).map(apiEntity) };
    },
  );
  // The project's flows (programs), drafts included; their own calls are under /api/admin/flow.
  app.get(
    `${P}/flow`,
    { schema: { tags, params: obj({ project: id() }), response: { 200: list } }, preHandler: requireUser },
    async (request) => {
      const p = await admin(request);
      return { error: 0, data: (await listFlows(db, p.id)).map(apiFlow) };
    },
  );
  app.get(
    `${P}/field`,
    { schema: { tags, params: obj({ project: id() }), response: { 200: list } }, preHandler: requireUser },
    async (request) => {
      const p = await admin(request);
      return { error: 0, data: (await listFields(db, p.id)).map(apiField) };
    },
  );
  app.get(
    `${P}/:entity/field`,
    {
      schema: { tags, params: obj({ project: id(), entity: entityRef }), response: { 200: list } },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      const e = await findEntity(db, p.id, (request.params as { entity: string }).entity);
      return { error: 0, data: (await listFields(db, p.id, e.id)).map(apiField) };
    },
  );

  app.post(
    `${P}/entity/create`,
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: obj({
          name: str(128),
          'code?': str(64),
          'module?': { anyOf: [id(), { type: 'null' }, { const: '' }] },
        }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      const e = await createEntity(
        db,
        p.id,
        request.body as { name: string; code?: string; module?: string | null },
      );
      return { error: 0, data: apiEntity(e) };
    },
  );
  app.post(
    `${P}/entity/:id/update`,
    {
      schema: {
        tags,
        params: obj({ project: id(), id: entityRef }),
        body: obj({
          'name?': str(128),
          'code?': str(64),
          'module?': { anyOf: [id(), { type: 'null' }, { const: '' }] },
          'sort?': int(),
        }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      const e = await findEntity(db, p.id, (request.params as { id: string }).id);
      return { error: 0, data: apiEntity(await updateEntity(db, e, request.body as object)) };
    },
  );
  app.get(
    `${P}/entity/:id/remove`,
    {
      schema: {
        tags,
        params: obj({ project: id(), id: entityRef }),
        querystring: confirmQuery,
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      const e = await findEntity(db, p.id, (request.params as { id: string }).id);
      if (!confirmed(request)) {
        const { rows, pointing } = await entityRemovalImpact(db, e);
        const names = pointing.map((f) => f.name).join(', ');
        fail(
          E.CONFIRM_DATA_LOSS,
          `removing "${e.name}" deletes its ${rows} rows and all its fields` +
            (pointing.length ? `, and the fields pointing at it: ${names}` : '') +
            '; call again with ?confirm=1',
        );
      }
      await removeEntity(db, dialect, e);
      return { error: 0, data: { removed: true } };
    },
  );

  const fieldBody = {
    name: str(128),
    type: { type: 'string', enum: [...FIELD_TYPES] },
    'field?': str(64),
    'relate?': entityRef,
    'option?': anyObj(),
    'hide?': bool(),
    'sort?': int(),
  };
  app.post(
    `${P}/:entity/field/create`,
    {
      schema: {
        tags,
        params: obj({ project: id(), entity: entityRef }),
        body: obj(fieldBody),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      const e = await findEntity(db, p.id, (request.params as { entity: string }).entity);
      const b = request.body as { name: string; type: FieldType };
      return { error: 0, data: apiField(await createField(db, dialect, e, b)) };
    },
  );
  app.post(
    `${P}/:entity/field/:id/update`,
    {
      schema: {
        tags,
        params: obj({ project: id(), entity: entityRef, id: entityRef }),
        body: obj({
          'name?': str(128),
          'type?': { type: 'string', enum: [...FIELD_TYPES] },
          'field?': str(64),
          'option?': anyObj(),
          'hide?': bool(),
          'sort?': int(),
          'status?': { type: 'string', enum: ['normal', 'disabled'] },
        }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      const params = request.params as { entity: string; id: string };
      const e = await findEntity(db, p.id, params.entity);
      const f = await findField(db, e, params.id);
      return { error: 0, data: apiField(await updateField(db, f, request.body as object)) };
    },
  );
  app.get(
    `${P}/:entity/field/:id/remove`,
    {
      schema: {
        tags,
        params: obj({ project: id(), entity: entityRef, id: entityRef }),
        querystring: confirmQuery,
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      const params = request.params as { entity: string; id: string };
      const e = await findEntity(db, p.id, params.entity);
      const f = await findField(db, e, params.id);
      if (!confirmed(request)) {
        const rows = await countRows(db, e.id);
        fail(
          E.CONFIRM_DATA_LOSS,
          `removing "${f.name}" deletes its values in ${rows} rows; call again with ?confirm=1`,
        );
      }
      await removeField(db, f);
      return { error: 0, data: { removed: true } };
    },
  );
}

export default area('lc-data-schema', schemaPlugin);
