/**
 * A project's utilities (runtime spec §7, `/api/app/util/{project}/…`): spreadsheet formulas
 * (`sheet/parse`, service formulas.ts) and a zip of uploaded files (`download`). Signed-in members of
 * the project only.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorize } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok, str } from '../http/schemas.ts';
import { type Cell, FORMULA_MAX_CHARS, FormulaRunner } from './formulas.ts';
import { safeName, UploadStore } from './upload-store.ts';

const tags = ['util'];
/** Files one download may bundle. */
export const DOWNLOAD_MAX_FILES = 200;
const CELLS_MAX = 10_000;

async function member(request: FastifyRequest) {
  const { project, actor } = await authorize(request, (request.params as { project: string }).project, {
    kind: 'app',
  });
  if (!actor.userId || actor.kind === 'public') fail(E.AUTH_REQUIRED);
  return project;
}

const cell = { type: ['string', 'number', 'boolean', 'null'], maxLength: 32_768 };

async function projectToolsPlugin(app: FastifyInstance): Promise<void> {
  const formulas = new FormulaRunner();
  app.addHook('onClose', async () => formulas.close());
  const store = new UploadStore(app.config.dataDir, app.config.s3);

  app.post(
    '/api/app/util/:project/sheet/parse',
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: obj({
          formula: str(FORMULA_MAX_CHARS, { minLength: 1 }),
          'value?': {
            oneOf: [
              { type: 'array', maxItems: 1000, items: { type: 'array', maxItems: 1000, items: cell } },
              { type: 'object', maxProperties: CELLS_MAX, additionalProperties: cell },
              { type: 'null' },
            ],
          },
          'option?': obj({ 'precision?': { type: 'integer', minimum: 0, maximum: 15 } }),
        }),
        response: { 200: ok(obj({ result: {} })) },
        description:
          'Evaluates a spreadsheet formula (Excel syntax and functions, leading `=` optional). `value` gives the ' +
          'cells: rows of values (`value[0][0]` is A1) or an object by reference (`{"A1": 2, "rate": 0.1}`, names ' +
          'usable as variables). Spreadsheet errors are results (`"#DIV/0!"`). A formula that does not parse: ' +
          '1859; one needing more than 2 s or its small heap, or a range over 100,000 cells: 1860. ' +
          `At most ${CELLS_MAX} cells.`,
      },
      preHandler: optionalUser,
    },
    async (request) => {
      await member(request);
      const b = request.body as {
        formula: string;
        value?: Cell[][] | Record<string, Cell> | null;
        option?: { precision?: number };
      };
      const value = Array.isArray(b.value) ? b.value : undefined;
      if (value && value.reduce((n, r) => n + r.length, 0) > CELLS_MAX)
        fail(E.BAD_REQUEST, `at most ${CELLS_MAX} cells`);
      const named = b.value && !Array.isArray(b.value) ? b.value : undefined;
      const result = await formulas.run({
        formula: b.formula,
        ...(value ? { value } : {}),
        ...(named ? { named } : {}),
        ...(b.option?.precision !== undefined ? { precision: b.option.precision } : {}),
      });
      return { error: 0, data: { result } };
    },
  );

  app.post(
    '/api/app/util/:project/cache/clear',
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: obj({}),
        response: {
          200: ok(obj({ cleared: { type: 'object', additionalProperties: { type: 'integer' } } })),
        },
        description:
          "Clears the project's server caches (table metadata; later programs and datasets) on this process and, " +
          'with REDIS_URL set, on every process. Caches check their own freshness, so this is for changes made ' +
          'outside the app (a database edited by hand). `cleared` counts what this process dropped, per cache. ' +
          'Builders of the project only.',
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project } = await authorize(request, (request.params as { project: string }).project, {
        kind: 'admin',
        dev: false,
      });
      return { error: 0, data: { cleared: await app.projectCaches.clear(project.id) } };
    },
  );

  app.post(
    '/api/app/util/:project/download',
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: obj({
          files: {
            type: 'array',
            minItems: 1,
            maxItems: DOWNLOAD_MAX_FILES,
            items: {
              anyOf: [
                str(1024, { minLength: 1 }),
                obj({ url: str(1024, { minLength: 1 }), 'name?': str(200) }),
              ],
            },
          },
        }),
        response: { 200: anyObj() },
        description:
          'A zip of uploaded files of this project (folder or object store), streamed as it is written (application/zip). `files` lists ' +
          'their `/upload/…` URLs, or `{url, name}` to name an entry. Names are reduced to safe characters (no ' +
          "folders, no traversal) and made unique. A URL outside this project's uploads, or a missing file: " +
          `1406 (nothing is sent). At most ${DOWNLOAD_MAX_FILES} files.`,
      },
      preHandler: optionalUser,
    },
    async (request, reply) => {
      const project = await member(request);
      const { files } = request.body as { files: Array<string | { url: string; name?: string }> };
      const entries: Array<{ open(): Promise<Readable>; name: string }> = [];
      const used = new Set<string>();
      for (const f of files) {
        const url = typeof f === 'string' ? f : f.url;
        const found = await store.find(url, project.id);
        if (!found) fail(E.RECORD_NOT_FOUND, `no such file in this project: ${url.slice(0, 120)}`);
        // Stored names are {timestamp}_{random}_{name}: the entry is named for the part the user gave.
        let name = safeName(
          typeof f === 'string' || !f.name ? found.stored.replace(/^\d+_[0-9a-f]{32}_/, '') : f.name,
        );
        for (let i = 1; used.has(name.toLowerCase()); i++) {
          const dot = name.lastIndexOf('.');
          const base = dot > 0 ? name.slice(0, dot).replace(/ \(\d+\)$/, '') : name.replace(/ \(\d+\)$/, '');
          name = `${base} (${i})${dot > 0 ? name.slice(dot) : ''}`;
        }
        used.add(name.toLowerCase());
        entries.push({ open: found.open, name });
      }
      // The zip writer loads with the first download, not with the server.
      const { Zip, ZipPassThrough } = await import('fflate');
      // Backpressure: when the client reads slower than files are read, reading waits for it.
      let wake: (() => void) | undefined;
      let full = false;
      const out = new Readable({
        read() {
          full = false;
          wake?.();
          wake = undefined;
        },
      });
      out.on('close', () => wake?.());
      const zip = new Zip((err, chunk, final) => {
        if (err) {
          out.destroy(err);
          return;
        }
        if (!out.push(Buffer.from(chunk))) full = true;
        if (final) out.push(null);
      });
      // One file at a time, read in chunks: memory stays at a chunk, whatever the total.
      void (async () => {
        try {
          for (const e of entries) {
            const entry = new ZipPassThrough(e.name);
            zip.add(entry);
            for await (const chunk of await e.open()) {
              entry.push(chunk as Buffer);
              if (full && !out.destroyed) await new Promise<void>((r) => (wake = r));
              if (out.destroyed) return;
            }
            entry.push(new Uint8Array(0), true);
          }
          zip.end();
        } catch (err) {
          out.destroy(err as Error);
        }
      })();
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="files.zip"`)
        .header('x-content-type-options', 'nosniff')
        .send(out);
    },
  );
}

export default area('lc-project-tools', projectToolsPlugin);
