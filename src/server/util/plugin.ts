import fs from 'node:fs';
import path from 'node:path';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { authorize } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { findEntity } from '../data/schema-service.ts';
import { AppError, E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok, str } from '../http/schemas.ts';
import {
  UPLOAD_MAX_BYTES,
  UPLOAD_TYPES,
  UPLOAD_URL_PREFIX,
  UploadStore,
  type UploadType,
} from './upload-store.ts';

const tags = ['util'];
const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The first file part of a multipart/form-data body: its file name and bytes. */
export function multipartFile(
  body: Buffer,
  contentType: string,
): { name: string; data: Buffer; type?: string } | null {
  const m = /boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  const boundary = m ? (m[1] ?? m[2]) : undefined;
  if (!boundary) return null;
  const delim = Buffer.from(`--${boundary}`);
  let p = body.indexOf(delim);
  while (p >= 0) {
    const headStart = p + delim.length + 2; // past the CRLF
    const headEnd = body.indexOf('\r\n\r\n', headStart);
    if (headEnd < 0) return null;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headEnd + 4);
    if (next < 0) return null;
    const head = body.toString('utf8', headStart, headEnd);
    const file = /content-disposition:[^\r\n]*\bfilename\*?=(?:UTF-8'')?"?([^"\r\n;]*)"?/i.exec(head);
    if (file) {
      let name = file[1] ?? '';
      try {
        name = decodeURIComponent(name);
      } catch {
        /* keep it as sent */
      }
      const type = /content-type:\s*([^\r\n;]{1,100})/i.exec(head)?.[1]?.trim();
      return { name, data: body.subarray(headEnd + 4, next), ...(type ? { type } : {}) };
    }
    p = next + 2;
  }
  return null;
}

/**
 * Only a signed-in member of the project with write access may upload (decide.ts, resource
 * `upload`): builders, or a role granted a table (the one named by `?entity=` when given).
 */
async function member(request: FastifyRequest) {
  const entity = (request.query as { entity?: string }).entity;
  const { project } = await authorize(
    request,
    (request.params as { project: string }).project,
    { kind: 'upload', ...(entity ? { entity } : {}) },
    'write',
  );
  // A table named for the upload must be one of this project's (another project's id: not found).
  if (entity) await findEntity(request.server.database.db, project.id, entity);
  return project;
}

/**
 * Utilities: the upload store (spec: `GET /api/app/util/{project}/upload?type=` answers an upload
 * action the client posts the file to; files at `project/{project}/main/{type}/{YYYYMMDD}/…`).
 */
async function utilPlugin(app: FastifyInstance): Promise<void> {
  const store = new UploadStore(app.config.dataDir, app.config.s3);
  const limit = UPLOAD_MAX_BYTES + 64 * 1024;
  const typeQuery = obj({
    'type?': { type: 'string', enum: [...UPLOAD_TYPES] },
    'name?': { type: 'string', maxLength: 200 },
    'entity?': id(),
  });

  app.addContentTypeParser(
    ['multipart/form-data', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: limit },
    (_r, body, done) => {
      done(null, body);
    },
  );
  app.setErrorHandler((err: FastifyError, _request, _reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      throw new AppError(E.UPLOAD_TOO_LARGE, `at most ${UPLOAD_MAX_BYTES} bytes`);
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      throw new AppError(E.UPLOAD_INVALID, 'send multipart/form-data or application/octet-stream');
    throw err;
  });

  await app.register(
    async (uploads) => {
      uploads.get(
        '/:project/upload',
        {
          schema: {
            tags,
            params: obj({ project: id() }),
            querystring: typeQuery,
            response: { 200: ok(anyObj()) },
            description:
              'Where to post a file: `uploadAction` (POST multipart/form-data with one file part, or the bytes as ' +
              'application/octet-stream with ?name=), `maxSize` in bytes (spec: 20480 KB). type image accepts PNG, JPEG, ' +
              'GIF and WebP (checked by content). With an S3-compatible store configured (S3_* variables) it answers ' +
              'the object-store mode instead: `oss: true`, `ossUrl` (POST multipart/form-data there), `fields` (send ' +
              'them first, then `key` (`dir` + the file name), `Content-Type` and the file part `file`), ' +
              '`policy`, `signature`, `accessKeyId`, `dir` (every key starts with it), `host` (the file is then at ' +
              '`{host}/{key}`) and `expire` (ms; the policy lasts 10 minutes, takes 1 byte to maxSize, and image/* ' +
              'types only for type image).',
          },
          preHandler: optionalUser,
        },
        async (request) => {
          const project = await member(request);
          const q = request.query as { type?: UploadType; entity?: string };
          const type = q.type ?? 'file';
          if (store.s3) {
            // Object-store mode: the browser posts straight to the bucket with a signed policy.
            const form = store.s3.postForm(project.id, type);
            return {
              error: 0,
              data: { oss: true, ...form, field: 'file', maxSize: UPLOAD_MAX_BYTES, type },
            };
          }
          return {
            error: 0,
            data: {
              uploadAction: `/api/app/util/${project.id}/upload?type=${type}${q.entity ? `&entity=${q.entity}` : ''}`,
              field: 'file',
              maxSize: UPLOAD_MAX_BYTES,
              type,
            },
          };
        },
      );

      uploads.post(
        '/:project/upload',
        {
          bodyLimit: limit,
          schema: {
            tags,
            params: obj({ project: id() }),
            querystring: typeQuery,
            body: {
              content: {
                'multipart/form-data': { schema: { description: 'one file part' } },
                'application/octet-stream': {
                  schema: { description: 'the file itself; name it with ?name=' },
                },
              },
            },
            response: { 200: ok(anyObj()) },
            description:
              'Stores the file; answers `{url, name, size, type, mime}` (`mime` as sniffed from the content). Too ' +
              'large: 1470; empty, not an image for type image, or no file part: 1469; name or declared type ' +
              'contradicting the content: 1967; executables: 1968; no write access: 1969 (or 1100/1102).',
          },
          preHandler: optionalUser,
        },
        async (request) => {
          const project = await member(request);
          const q = request.query as { type?: UploadType; name?: string };
          const body = request.body;
          if (!Buffer.isBuffer(body)) fail(E.UPLOAD_INVALID, 'no file');
          const ct = String(request.headers['content-type'] ?? '');
          const part = ct.startsWith('multipart/')
            ? multipartFile(body, ct)
            : { name: q.name ?? 'file', data: body, type: undefined };
          if (!part) fail(E.UPLOAD_INVALID, 'no file part');
          const saved = await store.save(project.id, q.type ?? 'file', part.name, part.data, part.type);
          const { url, name, size, type, mime } = saved;
          return { error: 0, data: { url, name, size, type, ...(mime ? { mime } : {}) } };
        },
      );

      // The rich-text helper's server protocol (UEditor's actions): config, uploadimage, listimage.
      const ueditorSchema = {
        tags,
        params: obj({ project: id() }),
        querystring: obj({
          action: str(40),
          'start?': str(6, { pattern: '^[0-9]{1,6}$' }),
          'size?': str(3, { pattern: '^[0-9]{1,3}$' }),
        }),
        response: { 200: ok(anyObj()) },
        description:
          "The rich-text helper's server protocol, UEditor's actions inside the usual answer (`state: " +
          '"SUCCESS"` with each). `?action=config`: what the editor may send (`imageActionName`, ' +
          '`imageFieldName`, `imageMaxSize` in bytes, `imageAllowFiles`, `imageManagerActionName`, ' +
          '`imageManagerListSize`). `?action=uploadimage` (POST multipart/form-data, the file part `upfile`): ' +
          'stores an image as the upload call does (same checks and codes, folder or object store) and ' +
          'answers `{url, title, original, type, size}`. `?action=listimage&start=0&size=20`: the ' +
          "project's uploaded images, newest first: `{list: [{url, mtime}], start, total}`. Another action: " +
          '2127. Write access to the project (as for uploads) for every action.',
      };
      const ueditor = async (request: FastifyRequest) => {
        const q = request.query as { action: string; start?: string; size?: string };
        const project = await member(request);
        if (q.action === 'config') {
          return {
            error: 0,
            data: {
              state: 'SUCCESS',
              imageActionName: 'uploadimage',
              imageFieldName: 'upfile',
              imageMaxSize: UPLOAD_MAX_BYTES,
              imageAllowFiles: ['.png', '.jpg', '.jpeg', '.gif', '.webp'],
              imageUrlPrefix: '',
              imageManagerActionName: 'listimage',
              imageManagerListSize: 20,
              imageManagerUrlPrefix: '',
              imageManagerAllowFiles: ['.png', '.jpg', '.jpeg', '.gif', '.webp'],
            },
          };
        }
        if (q.action === 'uploadimage') {
          if (request.method !== 'POST') fail(E.UEDITOR_ACTION_UNKNOWN, 'uploadimage takes a POST');
          const body = request.body;
          const ct = String(request.headers['content-type'] ?? '');
          if (!Buffer.isBuffer(body) || !ct.startsWith('multipart/')) fail(E.UPLOAD_INVALID, 'no file');
          const part = multipartFile(body, ct);
          if (!part) fail(E.UPLOAD_INVALID, 'no file part');
          const saved = await store.save(project.id, 'image', part.name, part.data, part.type);
          const ext = saved.url.slice(saved.url.lastIndexOf('.')).toLowerCase();
          return {
            error: 0,
            data: {
              state: 'SUCCESS',
              url: saved.url,
              title: saved.name,
              original: part.name.slice(0, 200),
              type: ext,
              size: saved.size,
            },
          };
        }
        if (q.action === 'listimage') {
          const start = Number(q.start ?? 0);
          const size = Math.min(100, Math.max(1, Number(q.size ?? 20)));
          const { list, total } = await store.listImages(project.id, start, size);
          return {
            error: 0,
            data: {
              state: 'SUCCESS',
              list: list.map((f) => ({ url: f.url, mtime: Math.floor(f.mtime / 1000) })),
              start,
              total,
            },
          };
        }
        fail(E.UEDITOR_ACTION_UNKNOWN, q.action.slice(0, 40));
      };
      uploads.get(
        '/:project/ueditor',
        { bodyLimit: limit, schema: ueditorSchema, preHandler: optionalUser },
        ueditor,
      );
      uploads.post(
        '/:project/ueditor',
        {
          bodyLimit: limit,
          schema: {
            ...ueditorSchema,
            body: {
              content: {
                'multipart/form-data': {
                  schema: { description: 'uploadimage: the image as the file part `upfile`' },
                },
              },
            },
          },
          preHandler: optionalUser,
        },
        ueditor,
      );
    },
    { prefix: '/api/app/util' },
  );

  // Stored files: public to whoever holds the (unguessable) URL; images inline, the rest as downloads.
  app.get(`${UPLOAD_URL_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
    const abs = store.resolve(request.url.split('?')[0]!);
    const st = abs ? await fs.promises.stat(abs).catch(() => null) : null;
    if (!abs || !st?.isFile()) fail(E.NOT_FOUND);
    const ext = path.extname(abs).slice(1).toLowerCase();
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'private, max-age=31536000, immutable');
    reply.header('content-length', st.size);
    if (MIME[ext]) reply.header('content-type', MIME[ext]);
    else {
      reply.header('content-type', 'application/octet-stream');
      reply.header('content-disposition', 'attachment');
    }
    return reply.send(fs.createReadStream(abs));
  });
}

export default area('lc-util', utilPlugin);
