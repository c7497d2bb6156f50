/**
 * POST /api/common/utils/translate {map, to, from}: machine translation of a map of texts for the
 * translation screen (/system/i18n), through the configured provider (i18n/translate.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LANG_CODE } from '../../shared/admin/i18n.ts';
import { caller, requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { obj, ok, str } from '../http/schemas.ts';
import { translateProvider } from './translate.ts';

/** Texts one call may send, and their total length (a page's worth of builder texts). */
export const TRANSLATE_MAX_TEXTS = 500;
export const TRANSLATE_MAX_CHARS = 50_000;
const tags = ['util'];

async function i18nPlugin(app: FastifyInstance): Promise<void> {
  const provider = translateProvider(app.config);
  app.post(
    '/api/common/utils/translate',
    {
      schema: {
        tags,
        body: obj({
          map: {
            type: 'object',
            maxProperties: TRANSLATE_MAX_TEXTS,
            propertyNames: { minLength: 1, maxLength: 240 },
            additionalProperties: { type: 'string', maxLength: 2000 },
          },
          to: str(16, { minLength: 2 }),
          'from?': str(16, { minLength: 2 }),
        }),
        response: { 200: ok({ type: 'object', additionalProperties: { type: 'string' } }) },
        description:
          'Translates each text of `map` (id → text) into language `to` (from `from`, or detected) and answers ' +
          `id → text. At most ${TRANSLATE_MAX_TEXTS} texts, ${TRANSLATE_MAX_CHARS} characters in all. Signed-in ` +
          'users only, rate limited like short links. The service is chosen by TRANSLATE_PROVIDER; with none ' +
          'configured the answer is 2080; a failing service 2081; an unknown language code 2082.',
      },
      preHandler: requireUser,
      config: {
        rateLimit: {
          max: app.config.rateLimits.short,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (r: FastifyRequest) => r.user?.id ?? r.ip,
        },
      },
    },
    async (request) => {
      caller(request);
      const { map, to, from } = request.body as { map: Record<string, string>; to: string; from?: string };
      if (!LANG_CODE.test(to)) fail(E.TRANSLATE_LANGUAGE, `to: ${to}`);
      if (from !== undefined && !LANG_CODE.test(from)) fail(E.TRANSLATE_LANGUAGE, `from: ${from}`);
      let chars = 0;
      for (const t of Object.values(map)) chars += t.length;
      if (chars > TRANSLATE_MAX_CHARS) fail(E.TOO_LARGE, `at most ${TRANSLATE_MAX_CHARS} characters in all`);
      const texts = Object.fromEntries(Object.entries(map).filter(([, t]) => t.trim() !== ''));
      return { error: 0, data: await provider.translate(texts, to, from) };
    },
  );
}

export default area('lc-i18n', i18nPlugin);
