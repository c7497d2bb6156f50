import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PreparedProgram } from '../../shared/program/index.ts';
import { authorize, decide } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok } from '../http/schemas.ts';
import { runAndLog } from './run.ts';
import { findFlow, inputFields, listFlows, releasedDoc } from './service.ts';

const tags = ['programs'];
const one = ok(anyObj());
const params = obj({
  project: id(),
  name: id(),
  key: { type: 'string', maxLength: 64 },
});
const runBody = obj({ 'data?': anyObj(), 'record?': { type: 'string', maxLength: 64 } });

/**
 * End-user program calls (spec; registered under /api/common/program/:project): init lists the
 * programs the caller may run, prepare says what a program asks before it runs, display runs it
 * rolled back (what it would show and change), exec runs it. `name` is the program's id; `key` names
 * where it was started from (a page, a menu entry): the spec's path has it, it is checked (at most 64
 * characters) and otherwise unused; it is not stored.
 */
async function programAppPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;

  /** The released program, if the caller's role is granted it. */
  const granted = async (request: FastifyRequest) => {
    const p = request.params as { project: string; name: string };
    const { project } = await authorize(request, p.project, { kind: 'app' });
    const flow = await findFlow(db, project.id, p.name);
    const { actor } = await authorize(request, project.id, { kind: 'program', id: flow.id });
    const doc = releasedDoc(flow);
    if (!doc || flow.type !== 'program') fail(E.PROGRAM_NOT_RELEASED);
    return { flow, doc, actor };
  };
  const prepared = (flow: Awaited<ReturnType<typeof granted>>): PreparedProgram => ({
    _id: flow.flow.id,
    _name: flow.flow.name,
    _version: flow.flow.released_version ?? 0,
    input: inputFields(flow.doc),
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
      const data = rows
        .filter((f) => f.type === 'program' && f.released !== null)
        .filter((f) => decide(actor, project, { kind: 'program', id: f.id }, 'read').allow)
        .map((f) => ({ _id: f.id, _name: f.name, _version: f.released_version }));
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
        const b = request.body as { data?: unknown; record?: string };
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
        return {
          error: 0,
          data: {
            run: r.run,
            status: r.status,
            output: r.output,
            display: r.display,
            entities: r.entities,
            changed: r.changes.length,
          },
        };
      },
    );
  }
}

export default area('lc-program-app', programAppPlugin);
