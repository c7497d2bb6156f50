import { PassThrough } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { I18N_MODEL, LANG_CODE, readTexts, textKey } from '../../../shared/admin/i18n.ts';
import { EXPORT_MAX_ROWS } from '../../../shared/constants.ts';
import { normalizeOrThrow } from '../../../shared/query/index.ts';
import { optionalUser } from '../../access/guard.ts';
import { caller } from '../../account/auth.ts';
import type { DB } from '../../db/schema.ts';
import { AppError, E, fail } from '../../errors.ts';
import { area } from '../../http/plugin-kit.ts';
import { anyObj, id, obj, ok } from '../../http/schemas.ts';
import { findItem } from '../../share/service.ts';
import { UploadStore } from '../../util/upload-store.ts';
import { grantedEntity, roleBounds } from '../app-records-plugin.ts';
import { collectionTargets, metaOf } from '../meta.ts';
import { queryRecords } from '../records.ts';
import { userContext } from '../records-plugin.ts';
import { type EntityRow, entityBySheetName, findEntity } from '../schema-service.ts';
import { roleClause, withClause } from '../view-service.ts';
import { wroteTables } from '../write-clock.ts';
import { checkZip, firstSheetName } from './zip-guard.ts';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const entityRef = { type: 'string', minLength: 1, maxLength: 64 };
const params = obj({ project: id(), entity: entityRef });
const tags = ['data'];

// The workbook code (exceljs, barcode and QR images) is read on the first import or export, not at
// server start: most processes never handle a spreadsheet.
const xlsxExport = () => import('./export.ts');
const xlsxImport = () => import('./import.ts');
const xlsxTemplate = () => import('./template.ts');

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function stamp(now = Date.now()): string {
  const d = new Date(now + 8 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

/**
 * Spreadsheet import and export of one table's records (`/api/app/d/{project}/{entity}/…`). Both go
 * through the same access decision as the data calls: a role must be granted the table (write to
 * import, read to export); non-managers never see hidden fields in an export and cannot name them in
 * an import. Builders (owners and admins) use the same calls from the workbench grid.
 */
async function xlsxPlugin(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;
  const limit = app.config.importLimit;
  const uploads = new UploadStore(app.config.dataDir, app.config.s3);

  app.addContentTypeParser(
    ['application/octet-stream', XLSX_MIME],
    { parseAs: 'buffer', bodyLimit: limit },
    (_request, body, done) => {
      done(null, body);
    },
  );
  // Upload failures in this scope get the import codes; everything else goes to the app's handler.
  app.setErrorHandler((err: FastifyError, _request, _reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      throw new AppError(E.IMPORT_TOO_LARGE, `at most ${limit} bytes`);
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      throw new AppError(E.IMPORT_NOT_XLSX, 'send the file as application/octet-stream');
    throw err;
  });

  const D = '/api/app/d/:project/:entity';

  const importSchema = (withEntity: boolean) => ({
    tags,
    params: withEntity ? params : obj({ project: id() }),
    querystring: obj({
      'keepGood?': { type: 'string', enum: ['0', '1', 'true', 'false'] },
      ...(withEntity ? {} : { 'entity?': entityRef }),
    }),
    // Any bytes: the file is checked by the zip guard and the reader, not by a schema.
    body: {
      content: {
        'application/octet-stream': { schema: { description: 'the xlsx file' } },
        [XLSX_MIME]: { schema: { description: 'the xlsx file' } },
      },
    },
    response: { 200: ok(anyObj()) },
    description:
      (withEntity
        ? ''
        : "The table is named by ?entity= (_id or code) or, without it, by the first sheet's name (a table's " +
          'code or its unique name; an exported file names its sheet after the table). No such table: 1400. ') +
      "Body: the xlsx file itself (application/octet-stream). The first sheet's first non-empty row names fields " +
      '(by name, alias or key); each further row becomes a record. With row errors nothing is written (error 1463 ' +
      'with data.errors, each "row {index}-{value}") unless keepGood=1, which inserts the valid rows.',
  });

  // Requests whose file the sheet-name lookup already passed through the zip guard.
  const zipChecked = new WeakSet<FastifyRequest>();
  const runImport = async (request: FastifyRequest, pick?: (projectId: string) => Promise<EntityRow>) => {
    const { project, meta, manager, actor } = await grantedEntity(request, 'write', pick);
    // Rows outside the role's default filter of the table are refused like any bad row.
    const bounds = roleBounds(request, await roleClause(db, project.id, meta, actor.role?.id));
    const file = request.body;
    if (!Buffer.isBuffer(file)) fail(E.IMPORT_NOT_XLSX, 'send the file as application/octet-stream');
    const all = manager ? meta.fields : (await metaOf(db, meta.entity)).fields;
    const keepGood = ['1', 'true'].includes((request.query as { keepGood?: string }).keepGood ?? '');
    const { importXlsx } = await xlsxImport();
    const result = await importXlsx(app.database, meta, all, file, caller(request).id, {
      keepGood,
      checked: zipChecked.has(request),
      outside: bounds ? (ids) => bounds(db, meta, ids) : undefined,
      wrote: wroteTables,
    });
    return { error: 0, data: result };
  };

  app.post(
    `${D}/import`,
    { bodyLimit: limit, schema: importSchema(true), preHandler: optionalUser },
    (request) => runImport(request),
  );

  // The spec's variant without the table in the path.
  app.post(
    '/api/app/d/:project/import',
    { bodyLimit: limit, schema: importSchema(false), preHandler: optionalUser },
    (request) =>
      runImport(request, async (projectId) => {
        const named = (request.query as { entity?: string }).entity;
        if (named) return findEntity(db, projectId, named);
        const file = request.body;
        if (!Buffer.isBuffer(file)) fail(E.IMPORT_NOT_XLSX, 'send the file as application/octet-stream');
        await checkZip(file);
        zipChecked.add(request);
        const sheet = firstSheetName(file);
        if (!sheet) fail(E.IMPORT_NOT_XLSX, 'the workbook has no sheet');
        return entityBySheetName(db, projectId, sheet);
      }),
  );

  app.post(
    `${D}/export`,
    {
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags,
        params,
        body: {
          type: 'object',
          maxProperties: 32,
          properties: {
            mode: { type: 'string', enum: ['page', 'all', 'template'] },
            fields: { type: 'array', maxItems: 64 },
            template: { type: 'string', maxLength: 3 * 1024 * 1024 },
            name: { type: 'string', maxLength: 100 },
            lang: { type: 'string', maxLength: 16 },
          },
        },
        response: {
          200: {
            description: 'the xlsx file',
            content: { [XLSX_MIME]: { schema: { type: 'string', format: 'binary' } } },
          },
        },
        description:
          "Answers the xlsx file. mode page: the query's page; all: up to 10,000 rows; at most 30 fields " +
          '(fields: keys). template: `template` is a base64 xlsx whose first sheet is filled once per record ' +
          "(at most 500), see README. `lang` (else the `lang` header, else Accept-Language): the reader's " +
          "language; field names and option labels come from that language's /system/i18n map where it has " +
          'them (an unknown code: 2082).',
      },
      preHandler: optionalUser,
    },
    async (request, reply: FastifyReply) => {
      const lang = readerLanguage(request);
      const { project, meta, manager, actor } = await grantedEntity(request, 'read');
      const body = withClause(
        request.body ?? {},
        await roleClause(db, project.id, meta, actor.role?.id),
      ) as Record<string, unknown>;
      const {
        mode = 'page',
        fields: codes,
        template,
        name,
        lang: _lang,
        ...rest
      } = body as {
        mode?: 'page' | 'all' | 'template';
        fields?: unknown;
        template?: unknown;
        name?: string;
        lang?: string;
      } & Record<string, unknown>;
      const q = normalizeOrThrow(mode === 'all' ? { ...rest, all: true } : rest, {
        now: Date.now(),
        user: userContext(request),
        fields: meta.queryTypes,
      });
      const base = (name?.trim() || meta.entity.name).replace(/[/\\\r\n]/g, '_');
      reply.header('content-type', XLSX_MIME);
      reply.header('content-disposition', disposition(`${base}-${stamp()}.xlsx`));
      reply.header('cache-control', 'no-store');
      if (mode === 'template') {
        const { loadTemplate, TEMPLATE_MAX_RECORDS, writeTemplate } = await xlsxTemplate();
        const sheet = await loadTemplate(meta, template);
        const { data } = await queryRecords(db, dialect, meta, {
          ...q,
          limit: Math.min(q.limit, TEMPLATE_MAX_RECORDS),
          count: false,
        });
        const targets = await collectionTargets(db, meta, !manager);
        const out = new PassThrough();
        const projectId = meta.entity.project_id;
        writeTemplate(meta, targets, sheet, data, out, (url) => uploads.read(url, projectId)).catch((err) => {
          request.log.error({ err }, 'template export failed');
          out.destroy(err as Error);
        });
        return reply.send(out);
      }
      const { exportFields, exportLabels, streamExport } = await xlsxExport();
      const fields = exportFields(meta, codes);
      const texts = lang ? await translations(db, project.id, lang) : null;
      const out = new PassThrough();
      streamExport(
        db,
        dialect,
        {
          meta,
          fields,
          query: { ...q, limit: Math.min(q.limit, EXPORT_MAX_ROWS) },
          ...(texts ? { labels: exportLabels(meta, texts) } : {}),
        },
        out,
      ).catch((err) => {
        request.log.error({ err }, 'export failed');
        out.destroy(err as Error);
      });
      return reply.send(out);
    },
  );
}

/**
 * The language an export is read in: the body's `lang`, else the `lang` header, else the first of
 * Accept-Language; null when none is given. A malformed code in the body is refused (2082).
 */
function readerLanguage(request: FastifyRequest): string | null {
  const asked = (request.body as { lang?: unknown } | undefined)?.lang;
  if (typeof asked === 'string') {
    if (!LANG_CODE.test(asked)) fail(E.TRANSLATE_LANGUAGE, `lang: ${asked.slice(0, 16)}`);
    return asked;
  }
  const header = request.headers.lang ?? request.headers['accept-language'];
  const first = String(Array.isArray(header) ? header[0] : (header ?? ''))
    .split(',')[0]!
    .split(';')[0]!
    .trim();
  // A browser's `en-US` reads the project's `en` map.
  const primary = first.split('-')[0]!.toLowerCase();
  return /^[a-z]{2,3}$/.test(primary) ? primary : null;
}

/** One language's translation map of the project (/system/i18n), or null when it has none. */
async function translations(db: Kysely<DB>, projectId: string, lang: string) {
  const row = await findItem(db, {
    projectId,
    model: I18N_MODEL,
    type: 'project',
    owner: '',
    key: textKey(lang),
  });
  if (!row) return null;
  try {
    return readTexts(JSON.parse(row.value));
  } catch {
    return null;
  }
}

export default area('lc-xlsx', xlsxPlugin);
