import fs from 'node:fs';
import path from 'node:path';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { authorize } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { findEntity } from '../data/schema-service.ts';
import { AppError, E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok } from '../http/schemas.ts';
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
  const store = new UploadStore(app.config.dataDir);
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
              'GIF and WebP (checked by content).',
          },
          preHandler: optionalUser,
        },
        async (request) => {
          const project = await member(request);
          const q = request.query as { type?: UploadType; entity?: string };
          const type = q.type ?? 'file';
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
