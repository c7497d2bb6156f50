/**
 * `/api/common/playground/…`: where a signed-in user finds the playground's sample apps, for the
 * client's `/playground/{app}` route (spec route table). An app opens in a system the caller is an
 * active member of that holds it (the demo project); the page itself is then read through the page
 * call, with the caller's grants.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { E } from '../../shared/errors.ts';
import { caller, requireUser } from '../account/auth.ts';
import { fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok, projectSchema, str } from '../http/schemas.ts';
import { publicProject } from '../project/service.ts';
import { type LoadedApp, PLAYGROUND } from './playground.ts';
import { copySample, listSamples } from './samples.ts';

const tags = ['playground'];
const APP_NAME = { type: 'string', pattern: '^[a-z0-9-]{1,64}$' };
const localized = obj({ zh: str(), en: str() });
const sample = obj({
  app: str(64),
  title: localized,
  summary: localized,
  mode: str(16),
  pages: { type: 'array', items: str() },
});
const opened = obj({ app: str(64), project: str(24), page: str(24), mode: str(16), params: anyObj() });

interface Opened {
  app: string;
  project: string;
  page: string;
  mode: string;
  params: Record<string, unknown>;
}

/** The caller's systems holding playground apps: (project, app, what was loaded), oldest system first. */
async function holdings(request: FastifyRequest, only?: { app?: string; project?: string }, prefer?: string) {
  const user = caller(request);
  let q = request.server.database.db
    .selectFrom('playground_apps as g')
    .innerJoin('project_members as m', 'm.project_id', 'g.project_id')
    .innerJoin('projects as p', 'p.id', 'g.project_id')
    .select(['g.project_id', 'g.app', 'g.content'])
    .where('m.user_id', '=', user.id)
    .where('m.status', '=', 'active');
  if (only?.app) q = q.where('g.app', '=', only.app);
  if (only?.project) q = q.where('g.project_id', '=', only.project);
  // A child token acts only in the project it was issued for (as everywhere, access/decide.ts).
  const session = request.session;
  if (session?.kind === 'child') q = q.where('g.project_id', '=', session.projectId ?? '');
  const rows = await q.orderBy('p.created_at').orderBy('g.created_at').execute();
  // The system the caller is in comes first (a page of a project started from a sample links its
  // sibling pages by their /playground routes: they open in that project, not the demo).
  if (prefer) rows.sort((a, b) => Number(b.project_id === prefer) - Number(a.project_id === prefer));
  return rows.map((r) => ({ project: r.project_id, app: r.app, loaded: JSON.parse(r.content) as LoadedApp }));
}

const answer = (h: { project: string; app: string; loaded: LoadedApp }): Opened => ({
  app: h.app,
  project: h.project,
  page: h.loaded.entry ?? '',
  mode: h.loaded.mode ?? 'pc',
  params: h.loaded.params ?? {},
});

async function playgroundPlugin(app: FastifyInstance): Promise<void> {
  app.get(
    '/list',
    {
      schema: {
        tags,
        description: 'The playground apps the caller can open (those with a page), in PLAYGROUND order.',
        response: { 200: ok({ type: 'array', items: opened }) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const order = Object.keys(PLAYGROUND);
      const seen = new Set<string>();
      const apps = (await holdings(request))
        .filter((h) => h.loaded.entry && PLAYGROUND[h.app] && !seen.has(h.app) && seen.add(h.app))
        .sort((a, b) => order.indexOf(a.app) - order.indexOf(b.app))
        .map(answer);
      return { error: 0, data: apps };
    },
  );

  app.get(
    '/samples',
    {
      schema: {
        tags,
        description:
          'The sample apps a builder can start a new project from (title, summary, display mode and the ' +
          'pages the new project gets). Needs no membership of the demo project.',
        response: { 200: ok({ type: 'array', items: sample }) },
      },
      preHandler: requireUser,
    },
    async () => ({ error: 0, data: listSamples() }),
  );

  app.post(
    '/copy',
    {
      schema: {
        tags,
        description:
          'New project from a sample: creates a project the caller owns (as /api/common/project/create ' +
          'does) holding a copy of the sample, the apps it uses and the pages sharing them, with fresh ids ' +
          'and every reference rewritten; answers the project and the page to open first. Unknown sample: ' +
          '2200; a failed copy: 2201.',
        body: obj({ app: APP_NAME, name: str(128, { minLength: 1 }) }),
        response: { 200: ok(obj({ project: projectSchema, page: str(24) })) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const body = request.body as { app: string; name: string };
      if (!body.name.trim()) fail(E.INVALID_FIELD, 'name: cannot be empty');
      const made = await copySample(request.server, caller(request).id, body.app, body.name.trim());
      return { error: 0, data: { project: publicProject(made.project, 'owner'), page: made.page } };
    },
  );

  app.get(
    '/:app',
    {
      schema: {
        tags,
        description:
          'What `/playground/{app}` opens: the system holding the app, its page, the parameters the page ' +
          'opens with and its display mode. `?project=` picks one of several systems, `?prefer=` tries ' +
          'that one first. Unknown app: 2180; ' +
          'not in a system the caller belongs to: 2181; an app without a page of its own: 2182.',
        params: obj({ app: APP_NAME }),
        querystring: obj({ 'project?': id(), 'prefer?': id() }),
        response: { 200: ok(opened) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const name = (request.params as { app: string }).app;
      const { project, prefer } = request.query as { project?: string; prefer?: string };
      if (!Object.hasOwn(PLAYGROUND, name)) fail(E.PLAYGROUND_UNKNOWN);
      const found = (await holdings(request, { app: name, ...(project ? { project } : {}) }, prefer))[0];
      if (!found) fail(E.PLAYGROUND_NOT_LOADED);
      if (!found.loaded.entry) fail(E.PLAYGROUND_NO_PAGE);
      return { error: 0, data: answer(found) };
    },
  );
}

export default area('lc-playground', async (app: FastifyInstance) => {
  await app.register(playgroundPlugin, { prefix: '/api/common/playground' });
});
