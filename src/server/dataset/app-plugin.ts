import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatasetPlan, ShowRequest } from '../../shared/dataset/index.ts';
import { planDataset } from '../../shared/dataset/index.ts';
import { QueryError } from '../../shared/query/error.ts';
import { authorize } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { userContext } from '../data/records-plugin.ts';
import { AppError, E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok } from '../http/schemas.ts';
import { type ProjectRow, projectOptions } from '../project/service.ts';
import { catalogOf, findDataset, releasedOf, runShow, runSummary } from './service.ts';

const tags = ['datasets'];

/** The tables a dataset reads, as records-change notices name them ({ entity: id, code }). */
function readTables(plan: DatasetPlan): { entity: string; code: string }[] {
  const out = new Map<string, { entity: string; code: string }>();
  for (const e of [plan.base, ...plan.joins.map((j) => j.entity)])
    out.set(e.id, { entity: e.id, code: e.code ?? '' });
  return [...out.values()];
}
const MAX_BATCH = 50;
const showBody = obj({
  'params?': { type: 'object', maxProperties: 16 },
  'query?': {},
  'sort?': {},
  'page?': {},
  'count?': {},
  'all?': {},
  'empty?': {},
  /** The version of the mapping the client holds: the columns are sent again only when it differs. */
  'version?': { type: 'integer' },
  /** The batched form (flow `__`): key → { flow, params, dataset }. */
  'map?': { type: 'object', maxProperties: MAX_BATCH },
});

/**
 * End-user dataset calls (spec; registered under /api/app/ds/:project): `POST /{flow}/show` shows a
 * released dataset the caller's role is granted; flow `__` is the batched form, a map of
 * key → { flow, params, dataset } answered keyed by key (each key its own answer or coded error).
 */
async function datasetAppPlugin(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;

  async function showOne(
    request: FastifyRequest,
    project: ProjectRow,
    flowId: string,
    body: ShowRequest & { version?: number },
  ) {
    const flow = await findDataset(db, project.id, flowId);
    const { actor } = await authorize(request, project.id, { kind: 'dataset', id: flow.id });
    const doc = releasedOf(flow);
    if (!doc) fail(E.DATASET_NOT_RELEASED);
    const plan = planDataset(doc, await catalogOf(db, project.id));
    const manager = actor.kind === 'owner' || actor.kind === 'admin';
    const answer = await runShow(db, dialect, plan, doc, body, {
      user: userContext(request),
      showHidden: manager,
    });
    const version = flow.released_version ?? 0;
    const { columns, ...rest } = answer;
    return {
      ...rest,
      version,
      ...(body.version === version ? {} : { columns }),
      // The tables it reads (base and joins): a view reloads when the records of one change.
      tables: readTables(plan),
    };
  }

  // The statistics row of a dataset view: the released dataset's whole filtered set, checked as a show.
  app.post(
    '/:flow/summary',
    {
      schema: {
        tags,
        params: obj({ project: id(), flow: { type: 'string', pattern: '^[0-9a-f]{24}$' } }),
        body: obj({
          'params?': { type: 'object', maxProperties: 16 },
          'query?': {},
          // The table summary's shape; the functions and columns are checked against the output.
          summary: obj({
            metrics: { type: 'array', minItems: 1 },
            'group?': { type: 'array' },
            'accuracy?': { type: 'integer', minimum: 0, maximum: 10 },
          }),
        }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const p = request.params as { project: string; flow: string };
      const { project } = await authorize(request, p.project, { kind: 'app' });
      const flow = await findDataset(db, project.id, p.flow);
      const { actor } = await authorize(request, project.id, { kind: 'dataset', id: flow.id });
      const doc = releasedOf(flow);
      if (!doc) fail(E.DATASET_NOT_RELEASED);
      const plan = planDataset(doc, await catalogOf(db, project.id));
      const body = (request.body ?? {}) as ShowRequest & { summary?: unknown };
      const data = await runSummary(db, dialect, plan, body, {
        user: userContext(request),
        showHidden: actor.kind === 'owner' || actor.kind === 'admin',
        accuracy: projectOptions(project).accuracy,
      });
      return { error: 0, data };
    },
  );

  app.post(
    '/:flow/show',
    {
      schema: {
        tags,
        // A dataset id, or `__` (the batched form); anything else is malformed.
        params: obj({ project: id(), flow: { type: 'string', pattern: '^(?:[0-9a-f]{24}|__)$' } }),
        body: showBody,
        response: { 200: ok(anyObj()) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const p = request.params as { project: string; flow: string };
      const { project } = await authorize(request, p.project, { kind: 'app' });
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (p.flow !== '__') return { error: 0, data: await showOne(request, project, p.flow, body) };
      const map = body.map;
      if (!map || typeof map !== 'object' || Array.isArray(map))
        fail(E.DATASET_BATCH_INVALID, 'expected { map }');
      const entries = Object.entries(map as Record<string, unknown>);
      if (entries.length > MAX_BATCH) fail(E.DATASET_BATCH_INVALID, `more than ${MAX_BATCH} keys`);
      for (const [key, v] of entries) {
        if (key.length > 128) fail(E.DATASET_BATCH_INVALID, 'key too long');
        const e = v as Record<string, unknown>;
        if (!e || typeof e !== 'object' || Array.isArray(e) || typeof e.flow !== 'string')
          fail(E.DATASET_BATCH_INVALID, `${key}: expected { flow, params, dataset }`);
        if (
          e.dataset !== undefined &&
          (typeof e.dataset !== 'object' || e.dataset === null || Array.isArray(e.dataset))
        )
          fail(E.DATASET_BATCH_INVALID, `${key}.dataset: expected the show's query`);
      }
      const data: Record<string, unknown> = {};
      // One after another: each is one statement, and the batch stays within one connection's share.
      for (const [key, v] of entries) {
        const e = v as {
          flow: string;
          params?: unknown;
          dataset?: Record<string, unknown>;
          version?: number;
        };
        try {
          const answer = await showOne(request, project, e.flow, {
            ...(e.dataset ?? {}),
            params: e.params,
            ...(typeof e.version === 'number' ? { version: e.version } : {}),
          });
          data[key] = { error: 0, data: answer };
        } catch (err) {
          if (err instanceof AppError || err instanceof QueryError)
            data[key] = { error: err.def.code, msg: err.message };
          else throw err;
        }
      }
      return { error: 0, data };
    },
  );
}

export default area('lc-dataset-app', datasetAppPlugin);
