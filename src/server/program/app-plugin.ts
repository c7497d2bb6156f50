import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  BulkAnswer,
  BulkRunItem,
  ExecAnswer,
  GrantedProgram,
  PreparedProgram,
} from '../../shared/program/index.ts';
import { PROGRAM_LIMITS } from '../../shared/program/index.ts';
import { type Actor, authorize, decide } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { actorProgramLimits, tableIds } from '../access/role-tables.ts';
import { AppError, E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok } from '../http/schemas.ts';
import { codeRunner } from './quickjs.ts';
import { runAndLog } from './run.ts';
import { findFlow, flushRuns, inputFields, listFlows, releasedDoc } from './service.ts';

const tags = ['programs'];
const HEX24 = /^[0-9a-f]{24}$/;
const one = ok(anyObj());
const params = obj({
  project: id(),
  name: id(),
  key: { type: 'string', maxLength: 64 },
});
const runBody = obj({
  'data?': anyObj(),
  'record?': { type: 'string', maxLength: 64 },
  'records?': { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 1000 },
});
/** The batched prepare (`name` = `__`): the programs asked for within the client's 50 ms window. */
const batchBody = obj({
  // Program ids, as the single prepare's `name`: anything else is refused up front (1000).
  names: { type: 'array', items: id(), minItems: 1, maxItems: 100 },
});

/**
 * End-user program calls (spec; registered under /api/common/program/:project): init lists the
 * programs the caller may run, prepare says what a program asks before it runs, display runs it
 * rolled back (what it would show and change), exec runs it. `name` is the program's id; `key` names
 * where it was started from (a page, a menu entry): the spec's path has it, it is checked (at most 64
 * characters) and otherwise unused; it is not stored.
 */
async function programAppPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  // Once programs are in use on a listening server (its first program call: init, prepare, exec),
  // the code-step sandbox is kept warm; an idle server never starts that thread (tests through
  // inject never do).
  let listening = false;
  app.addHook('onListen', async () => {
    listening = true;
  });
  app.addHook('onRequest', async () => {
    if (!listening) return;
    listening = false;
    codeRunner.keepReady();
  });
  // Run log rows queued by the last requests are written before the database closes.
  app.addHook('onClose', async () => flushRuns(db).catch(() => undefined));

  /** The released program, if the caller's role is granted it. */
  const granted = async (request: FastifyRequest, name?: string) => {
    const p = request.params as { project: string; name: string };
    const { project, actor } = await authorize(request, p.project, { kind: 'app' });
    const flow = await findFlow(db, project.id, name ?? p.name);
    // The same caller and project: the grant is decided without reading them again.
    const d = decide(actor, project, { kind: 'program', id: flow.id }, 'read');
    if (!d.allow) fail(d.error, d.reason);
    const doc = releasedDoc(flow);
    if (!doc || flow.type !== 'program') fail(E.PROGRAM_NOT_RELEASED);
    await checkTableLimit(request, project.id, actor, flow.id, doc._option._entity ?? null);
    return { flow, doc, actor };
  };
  /**
   * A role that limits the programs of a table (role-tables.ts) runs only those on it: the table the
   * program works on, and the table of the list entry it was started from (`key`, a menu entry id).
   */
  const checkTableLimit = async (
    request: FastifyRequest,
    projectId: string,
    actor: Actor,
    flowId: string,
    entity: string | null,
  ) => {
    const limits = await actorProgramLimits(db, projectId, actor);
    if (!limits.size) return;
    const ids = await tableIds(db, projectId);
    const tables = new Set<string | undefined>();
    if (entity) tables.add(ids.get(entity));
    const key = (request.params as { key?: string }).key ?? '';
    if (HEX24.test(key)) {
      const entry = await db
        .selectFrom('routes')
        .select(['type', 'value'])
        .where('id', '=', key)
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      if (entry?.type === 'table' && entry.value) tables.add(ids.get(entry.value));
    }
    for (const t of tables) {
      const allowed = t ? limits.get(t) : undefined;
      if (allowed && !allowed.includes(flowId)) fail(E.PROGRAM_NOT_ALLOWED_HERE);
    }
  };
  const prepared = (flow: Awaited<ReturnType<typeof granted>>): PreparedProgram => ({
    _id: flow.flow.id,
    _name: flow.flow.name,
    _version: flow.flow.released_version ?? 0,
    input: inputFields(flow.doc),
    _entity: flow.doc._option._entity ?? null,
  });

  app.get(
    '/init',
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        response: { 200: ok({ type: 'array', items: anyObj() }) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await authorize(request, (request.params as { project: string }).project, {
        kind: 'app',
      });
      const rows = await listFlows(db, project.id);
      const limits = await actorProgramLimits(db, project.id, actor);
      const tables = limits.size ? await tableIds(db, project.id) : new Map<string, string>();
      const data: GrantedProgram[] = [];
      for (const f of rows) {
        if (f.type !== 'program' || f.released === null) continue;
        if (!decide(actor, project, { kind: 'program', id: f.id }, 'read').allow) continue;
        const doc = releasedDoc(f)!;
        // Trigger programs run on writes, not from buttons.
        if (doc._option.trigger) continue;
        // Not offered on a table whose programs the role limits to others.
        const table = doc._option._entity ? tables.get(doc._option._entity) : undefined;
        const allowed = table ? limits.get(table) : undefined;
        if (allowed && !allowed.includes(f.id)) continue;
        data.push({
          _id: f.id,
          _name: f.name,
          _version: f.released_version ?? 0,
          _entity: doc._option._entity ?? null,
          _input: inputFields(doc).length > 0,
        });
      }
      return { error: 0, data };
    },
  );
  app.post(
    '/prepare/__/:key',
    {
      schema: {
        tags,
        params: obj({ project: id(), key: { type: 'string', maxLength: 64 } }),
        body: batchBody,
        response: { 200: one },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      // The project and the caller are checked once for the whole call (an unknown project, a
      // caller who may not use the app: refused, nothing answered); then each program answers on
      // its own: one not granted (or gone) does not fail the others.
      await authorize(request, (request.params as { project: string }).project, { kind: 'app' });
      const { names } = request.body as { names: string[] };
      const data: Record<string, PreparedProgram | { error: number; msg: string }> = {};
      for (const name of new Set(names)) {
        try {
          data[name] = prepared(await granted(request, name));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          data[name] = { error: err.def.code, msg: err.message };
        }
      }
      return { error: 0, data };
    },
  );
  app.post(
    '/prepare/:name/:key',
    {
      schema: { tags, params, body: { type: 'object', maxProperties: 0 }, response: { 200: one } },
      preHandler: optionalUser,
    },
    async (request) => ({ error: 0, data: prepared(await granted(request)) }),
  );
  for (const trigger of ['display', 'exec'] as const) {
    app.post(
      `/${trigger}/:name/:key`,
      { schema: { tags, params, body: runBody, response: { 200: one } }, preHandler: optionalUser },
      async (request) => {
        const g = await granted(request);
        // Programs write: anonymous visitors of a public project may not run them.
        if (!g.actor.userId) fail(E.AUTH_REQUIRED);
        const b = request.body as { data?: unknown; record?: string; records?: string[] };
        if (b.records) return { error: 0, data: await bulk(g, request, trigger, b.data, b.records) };
        const r = await runAndLog(app, {
          flow: g.flow,
          doc: g.doc,
          version: g.flow.released_version,
          user: request.user,
          trigger,
          data: b.data,
          recordId: b.record || undefined,
        });
        // End users get what the program shows and which tables changed, not the rows' old values.
        const data: ExecAnswer = {
          run: r.run,
          status: r.status,
          output: r.output,
          display: r.display,
          entities: r.entities,
          changed: r.changes.length,
        };
        return { error: 0, data };
      },
    );
  }

  /**
   * A bulk run (the selected rows of a list or table): the same input, one run per record, each in
   * its own transaction and logged on its own, in the order given. A record whose run fails does not
   * undo the others; every record answers its status (and its coded error).
   */
  async function bulk(
    g: Awaited<ReturnType<typeof granted>>,
    request: FastifyRequest,
    trigger: 'display' | 'exec',
    data: unknown,
    records: string[],
  ): Promise<BulkAnswer> {
    const ids = [...new Set(records)];
    if (ids.length === 0 || ids.length > PROGRAM_LIMITS.bulkRecords)
      fail(E.PROGRAM_BULK_LIMIT, `${ids.length} records`);
    if (!g.doc._option._entity) fail(E.PROGRAM_NO_TABLE);
    const out: BulkAnswer = { runs: [], ok: 0, failed: 0, display: [], entities: [], changed: 0 };
    const entities = new Set<string>();
    for (const record of ids) {
      let item: BulkRunItem;
      try {
        const r = await runAndLog(app, {
          flow: g.flow,
          doc: g.doc,
          version: g.flow.released_version,
          user: request.user,
          trigger,
          data,
          recordId: record,
        });
        item = { record, run: r.run, status: r.status, output: r.output };
        out.display.push(...r.display);
        for (const e of r.entities) entities.add(e);
        out.changed += r.changes.length;
        out.ok += 1;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // Input the program refuses is refused for every record alike: answered once, as a refusal.
        if (err.def === E.PROGRAM_INPUT) throw err;
        const d = (err.data as { run?: string; step?: string | null } | undefined) ?? {};
        item = {
          record,
          run: d.run ?? null,
          status: 'failed',
          error: { code: err.def.code, msg: err.message, step: d.step ?? null },
        };
        out.failed += 1;
      }
      out.runs.push(item);
    }
    out.entities = [...entities];
    return out;
  }
}

export default area('lc-program-app', programAppPlugin);
