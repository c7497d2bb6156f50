/**
 * Printing (runtime spec §7): `print/prepare` keeps a print's data under a single-use key for a
 * new-window print at `/app/{project}/print/{page}?key=…`, `print/take` hands it to that page once, and
 * `sheet/print` exports several print pages as one PDF (server mode, headless Chromium) or as keyed
 * print-page links the browser prints itself (client mode).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PRINT_COPIES_MAX, PRINT_PAGES_MAX, type PrintOption } from '../../shared/print.ts';
import { authorize } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { E, fail } from '../errors.ts';
import { requestToken } from '../http/envelope.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, bool, id, obj, ok, str } from '../http/schemas.ts';
import { findMeta } from '../page/service.ts';
import { findChromium, PdfRenderer } from './chromium.ts';
import { KEY_PATTERN, prepareKey, takeKey } from './keys.ts';

const tags = ['print'];
const PAGE_REF = {
  type: 'string',
  pattern: '^([0-9a-f]{24})?$',
  description: "a page id; '' for the plain print document",
};

/** The print option as a request carries it (spec: title, url, data, field, info, copies; plus layout). */
export const printOptionSchema = obj({
  'title?': str(200),
  'url?': str(2000),
  'data?': {
    oneOf: [{ type: 'array', maxItems: 10_000, items: { type: 'object' } }, { type: 'object' }],
  },
  'field?': {
    type: 'array',
    maxItems: 200,
    items: obj({ key: str(64, { minLength: 1 }), title: str(200) }),
  },
  'info?': str(2000),
  'copies?': { type: 'integer', minimum: 1, maximum: PRINT_COPIES_MAX },
  'columns?': { type: 'integer', enum: [2, 3, 4] },
  'rows?': { type: 'integer', minimum: 5, maximum: 100 },
  'landscape?': bool(),
  'page?': str(64),
});

/** A signed-in member (or the public role of a public project) allowed this print page. */
async function printer(request: FastifyRequest, page: string) {
  const { project, actor } = await authorize(request, (request.params as { project: string }).project, {
    kind: 'app',
  });
  if (page) {
    const meta = await findMeta(request.server.database.db, project.id, page);
    if (!meta || meta.published_version === null) fail(E.PRINT_PAGE_INVALID);
    await authorize(request, project.id, { kind: 'page', id: page });
  }
  return { project, user: actor.userId ?? null };
}

function printUrl(project: string, page: string, key: string, params?: Record<string, unknown>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {}))
    if (k !== 'key' && k !== 'pdf' && v !== undefined && v !== null) q.set(k, String(v));
  q.set('key', key);
  return `/app/${project}/print/${page || '-'}?${q.toString()}`;
}

/** Where the headless browser reaches this server: `PRINT_BASE_URL`, else the port it listens on. */
function baseUrl(app: FastifyInstance): string {
  if (process.env.PRINT_BASE_URL) return process.env.PRINT_BASE_URL.replace(/\/+$/, '');
  const a = app.server.address();
  if (!a || typeof a === 'string') fail(E.PRINT_RENDER_FAILED, 'the server is not listening on a port');
  return `http://127.0.0.1:${a.port}`;
}

async function printPlugin(app: FastifyInstance): Promise<void> {
  const renderer = new PdfRenderer();
  app.addHook('onClose', async () => renderer.close());
  const db = () => app.database.db;

  app.post(
    '/api/app/util/:project/print/prepare',
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: obj({
          page: PAGE_REF,
          'key?': { type: 'string', pattern: KEY_PATTERN },
          'print?': printOptionSchema,
        }),
        response: { 200: ok(obj({ key: str(64), url: str(4000), expiresAt: { type: 'integer' } })) },
        description:
          'Keeps a print (title, url, data, field, info, copies, columns, rows) under a unique key for a new-window ' +
          'print: open `url` (`/app/{project}/print/{page}?key=…`, page `-` for the plain print document). The key ' +
          'is generated unless the caller proposes one (16–64 url-safe characters; in use: 2121); it is taken once, ' +
          'by the same user, within 10 minutes. A page that is not a published page of the project: 2126; print ' +
          'data over 1,000,000 characters: 2122.',
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const b = request.body as { page: string; key?: string; print?: PrintOption };
      const { project, user } = await printer(request, b.page);
      const { key, expiresAt } = await prepareKey(db(), {
        project: project.id,
        user,
        page: b.page,
        data: b.print ?? {},
        ...(b.key ? { key: b.key } : {}),
      });
      return { error: 0, data: { key, url: printUrl(project.id, b.page, key), expiresAt } };
    },
  );

  app.post(
    '/api/app/util/:project/print/take',
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: obj({ key: { type: 'string', pattern: KEY_PATTERN } }),
        response: { 200: ok(obj({ page: str(64), print: anyObj() })) },
        description:
          'The print page takes its key: answers the page and the print data, and the key is gone. Unknown, ' +
          "used, expired, another project's or another user's key: 2120.",
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, user } = await printer(request, '');
      const { key } = request.body as { key: string };
      const taken = await takeKey(db(), { project: project.id, user, key });
      return { error: 0, data: { page: taken.page, print: taken.data as Record<string, unknown> } };
    },
  );

  app.post(
    '/api/app/util/:project/sheet/print',
    {
      schema: {
        tags,
        params: obj({ project: id() }),
        body: obj({
          pages: {
            type: 'array',
            minItems: 1,
            maxItems: PRINT_PAGES_MAX,
            items: obj({
              page: PAGE_REF,
              'print?': printOptionSchema,
              'params?': {
                type: 'object',
                maxProperties: 50,
                additionalProperties: { type: ['string', 'number', 'boolean'], maxLength: 2000 },
              },
            }),
          },
          'option?': obj({
            'mode?': { type: 'string', enum: ['server', 'client'] },
            'landscape?': bool(),
            'name?': str(200),
          }),
        }),
        response: { 200: anyObj() },
        description:
          'Several print pages in one export. Server mode (default): one PDF (application/pdf) of every page in ' +
          'order, each rendered by a headless Chromium with the caller’s own rights; without Chromium on the ' +
          'server: 2123; more than two exports at once: 2125; a page that fails to render: 2124. Client mode: ' +
          '`{mode: "client", items: [{key, url}]}`, one single-use print link per page for the browser to print.',
      },
      preHandler: optionalUser,
    },
    async (request, reply) => {
      const b = request.body as {
        pages: Array<{ page: string; print?: PrintOption; params?: Record<string, unknown> }>;
        option?: { mode?: 'server' | 'client'; landscape?: boolean; name?: string };
      };
      // Every page is checked before any key is kept: a refused export leaves nothing behind.
      const who = [];
      for (const p of b.pages) who.push(await printer(request, p.page));
      const prepared: Array<{ key: string; url: string }> = [];
      for (const [i, p] of b.pages.entries()) {
        const { project, user } = who[i]!;
        const { key } = await prepareKey(db(), {
          project: project.id,
          user,
          page: p.page,
          data: p.print ?? {},
        });
        prepared.push({ key, url: printUrl(project.id, p.page, key, p.params) });
      }
      if (b.option?.mode === 'client') return { error: 0, data: { mode: 'client', items: prepared } };
      if (!findChromium()) fail(E.PRINT_CHROMIUM_MISSING);
      const base = baseUrl(app);
      const pdf = await renderer.render({
        urls: prepared.map((p) => `${base}${p.url}&pdf=1`),
        token: requestToken(request) ?? null,
        ...(b.option?.landscape ? { landscape: true } : {}),
        // Designed pages get page numbers in the caller's language (the interface's `lang` header first).
        lang: /^zh/i.test(String(request.headers.lang ?? request.headers['accept-language'] ?? ''))
          ? 'zh'
          : 'en',
      });
      const name = (b.option?.name || 'print').replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 80) || 'print';
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}.pdf`);
      return reply.send(Buffer.from(pdf));
    },
  );
}

export default area('lc-print', printPlugin);
