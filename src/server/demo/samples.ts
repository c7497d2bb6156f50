/**
 * "New project from a sample": a playground app copied into a new project its caller owns, through
 * the same loader (and so the same admin calls and checks) the demo project uses. Ids are fresh and
 * every `@page:` / `@entity:` / `@row:` reference is resolved against the new project's objects.
 *
 * A sample brings its family: the apps it `uses` and the other apps using those (the shop's ten
 * pages share the shop's tables and link each other), so a copied page's links stay inside the copy.
 * The copy is recorded in `playground_apps` marked `copy`, so `/playground/<app>` opened from the
 * new project draws the copy's page, and start-up never tops the project up with the other apps.
 */
import type { FastifyInstance } from 'fastify';
import { createSession, revokeSession } from '../account/service.ts';
import { sha256hex } from '../account/tokens.ts';
import { E, fail } from '../errors.ts';
import { createProject, type ProjectRow } from '../project/service.ts';
import { adminCaller, type LoadedApp, type Localized, loadPlaygroundApp, PLAYGROUND } from './playground.ts';

export interface SampleInfo {
  app: string;
  title: Localized;
  summary: Localized;
  mode: 'pc' | 'mobile';
  /** The pages the new project gets (zh / en names), in load order. */
  pages: string[];
}

/** An app that can start a project: it has a page to open. */
function isSample(name: string): boolean {
  return Object.hasOwn(PLAYGROUND, name) && Boolean(PLAYGROUND[name]!.entry);
}

function usesOf(name: string, acc = new Set<string>()): Set<string> {
  for (const dep of PLAYGROUND[name]?.uses ?? [])
    if (!acc.has(dep)) {
      acc.add(dep);
      usesOf(dep, acc);
    }
  return acc;
}

/** The apps copied for `name`, in PLAYGROUND (load) order: itself, what it uses, and its siblings. */
export function sampleFamily(name: string): string[] {
  const shared = usesOf(name);
  const family = new Set([name, ...shared]);
  for (const other of Object.keys(PLAYGROUND)) {
    const theirs = usesOf(other);
    if ([...theirs].some((dep) => shared.has(dep))) {
      family.add(other);
      for (const dep of theirs) family.add(dep);
    }
  }
  return Object.keys(PLAYGROUND).filter((n) => family.has(n));
}

/** The samples a builder can start from, in PLAYGROUND order. */
export function listSamples(): SampleInfo[] {
  return Object.keys(PLAYGROUND)
    .filter(isSample)
    .map((app) => {
      const def = PLAYGROUND[app]!;
      return {
        app,
        title: def.sample?.title ?? { zh: def.module, en: def.module },
        summary: def.sample?.summary ?? { zh: '', en: '' },
        mode: def.mode ?? 'pc',
        pages: sampleFamily(app).flatMap((n) => (PLAYGROUND[n]!.pages ?? []).map((p) => p.name)),
      };
    });
}

/**
 * Creates a project named `name` owned by `userId` and loads the sample's family into it; answers the
 * project and the sample's entry page. An unknown sample fails before anything is written (2200).
 */
export async function copySample(
  app: FastifyInstance,
  userId: string,
  sample: string,
  name: string,
): Promise<{ project: ProjectRow; page: string }> {
  if (!isSample(sample)) fail(E.SAMPLE_UNKNOWN);
  const { db } = app.database;
  const project = await createProject(db, userId, name);
  const token = await createSession(db, userId);
  const call = adminCaller(app, token, 'sample');
  const loaded: Record<string, LoadedApp> = {};
  try {
    for (const n of sampleFamily(sample)) {
      const content = { ...(await loadPlaygroundApp(call, project.id, PLAYGROUND[n]!, loaded)), copy: true };
      await db
        .insertInto('playground_apps')
        .values({ project_id: project.id, app: n, content: JSON.stringify(content), created_at: Date.now() })
        .execute();
      loaded[n] = content;
    }
  } catch (err) {
    app.log.error({ err, sample, project: project.id }, 'sample copy failed');
    fail(E.SAMPLE_COPY_FAILED);
  } finally {
    await revokeSession(db, sha256hex(token));
  }
  return { project, page: loaded[sample]!.entry! };
}
