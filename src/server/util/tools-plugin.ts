/**
 * Utilities every signed-in user may call, not tied to one project's data (runtime spec §7):
 * short links and the remote-image proxy. Services: short-links.ts, res-proxy.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { optionalUser } from '../access/guard.ts';
import { caller, requireUser } from '../account/auth.ts';
import { area } from '../http/plugin-kit.ts';
import { obj, ok, str } from '../http/schemas.ts';
import { ResProxy } from './res-proxy.ts';
import { follow, SHORT_URL_MAX, shorten } from './short-links.ts';

const tags = ['util'];

/** Rate-limit key: the signed-in user when known, else the client address. */
function who(request: FastifyRequest): string {
  return request.user?.id ?? request.ip;
}

async function toolsPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const limits = app.config.rateLimits;
  const proxy = new ResProxy({ ...app.config.res, cacheBytes: 32 * 1024 * 1024, cacheMs: 10 * 60_000 });

  app.post(
    '/api/common/utils/short',
    {
      schema: {
        tags,
        body: obj({ url: str(SHORT_URL_MAX, { minLength: 1 }) }),
        response: { 200: ok(obj({ code: str(16), url: str(), short: str() })) },
        description:
          'A short link for an absolute http(s) URL (no credentials, at most 2048 characters): `short` is ' +
          '`/s/{code}` on this server, followed by a redirect. The same URL always answers the same code. ' +
          `Signed-in users only; at most RATE_SHORT (${limits.short}) per minute each. Bad URL: 1850.`,
      },
      preHandler: requireUser,
      config: { rateLimit: { max: limits.short, timeWindow: 60_000, hook: 'preHandler', keyGenerator: who } },
    },
    async (request) => {
      const { url } = request.body as { url: string };
      const code = await shorten(db, url.trim(), caller(request).id);
      return { error: 0, data: { code, url: url.trim(), short: `/s/${code}` } };
    },
  );

  app.get(
    '/s/:code',
    {
      schema: {
        // A browser address, not an API call (it is described with POST /api/common/utils/short).
        hide: true,
        params: obj({ code: str(32) }),
      },
      config: { rateLimit: { max: limits.res, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const url = await follow(db, (request.params as { code: string }).code);
      return reply.header('referrer-policy', 'no-referrer').redirect(url, 302);
    },
  );

  app.get(
    '/api/common/utils/res',
    {
      schema: {
        tags,
        querystring: obj({ url: str(4096, { minLength: 1 }) }),
        description:
          'A remote image through this server (the spec rewrites file-host URLs to it). http(s) only; every ' +
          'address the host resolves to, and every redirect (at most 3), is checked: loopback, private, ' +
          'link-local, metadata and reserved addresses are refused (1853) before anything is fetched. Only ' +
          `image types (1855), at most RES_MAX_BYTES (${app.config.res.maxBytes}) bytes (1856), within ` +
          `RES_TIMEOUT_MS (${app.config.res.timeoutMs}) ms; other failures 1854. Cached for 10 minutes. ` +
          'Images appear in pages anonymous visitors may open, so no sign-in is needed; a sent token must be live.',
      },
      preHandler: optionalUser,
      config: { rateLimit: { max: limits.res, timeWindow: 60_000, hook: 'preHandler', keyGenerator: who } },
    },
    async (request, reply) => {
      const { url } = request.query as { url: string };
      const answer = await proxy.get(url);
      return reply
        .header('content-type', answer.type)
        .header('content-length', answer.body.length)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=86400')
        .send(answer.body);
    },
  );
}

export default area('lc-tools', toolsPlugin);
