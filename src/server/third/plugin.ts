/**
 * Third-party login (runtime spec §7): POST /api/common/user/oauth/id {token} exchanges a
 * messaging-app token (the `wx_token` / `wxapp_token` URL options) for a login token. No
 * messaging-app integration is built into this server yet, so every well-formed call answers the
 * coded error THIRD_NOT_CONFIGURED and changes nothing; the client shows it as a notice.
 */
import type { FastifyInstance } from 'fastify';
import { E, fail } from '../errors.ts';
import { obj, ok, str } from '../http/schemas.ts';

export default async function thirdPlugin(app: FastifyInstance): Promise<void> {
  app.post(
    '/id',
    {
      schema: {
        tags: ['third'],
        body: obj({ token: str(512, { minLength: 1 }) }),
        response: { 200: ok(obj({ token: str() })) },
      },
    },
    async () => fail(E.THIRD_NOT_CONFIGURED),
  );
}
