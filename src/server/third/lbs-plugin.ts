/** `POST /api/third/lbs/{provider}/poi {lat, lng, map}`: places near a point (service: lbs.ts). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser } from '../account/auth.ts';
import { area } from '../http/plugin-kit.ts';
import { obj, ok, str } from '../http/schemas.ts';
import { LBS_PROVIDERS, type LbsProviderName, lbsProviders, type PoiQuery } from './lbs.ts';

const num = (extra: Record<string, unknown> = {}) => ({ type: 'number', ...extra });

async function lbsPlugin(app: FastifyInstance): Promise<void> {
  const providers = lbsProviders(app.config.lbs);
  const poi = obj({
    id: str(),
    title: str(),
    address: str(),
    category: str(),
    lat: num(),
    lng: num(),
    distance: { type: ['number', 'null'] },
  });
  app.post(
    '/api/third/lbs/:provider/poi',
    {
      schema: {
        tags: ['third'],
        params: obj({ provider: { type: 'string', enum: [...LBS_PROVIDERS] } }),
        body: obj({
          lat: num({ minimum: -90, maximum: 90 }),
          lng: num({ minimum: -180, maximum: 180 }),
          'map?': { type: 'string', enum: ['gcj02', 'wgs84'] },
        }),
        response: { 200: ok({ type: 'array', items: poi }) },
        description:
          'Places near a point from a map provider (weixin: the Tencent location service; key LBS_WEIXIN_KEY). ' +
          "`map` is the coordinates' system: gcj02 (default) or wgs84. Signed-in users only. Not configured: " +
          '1857; the provider failing or refusing: 1858.',
      },
      preHandler: requireUser,
      config: {
        rateLimit: {
          max: app.config.rateLimits.lbs,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (r: FastifyRequest) => r.user?.id ?? r.ip,
        },
      },
    },
    async (request) => {
      const { provider } = request.params as { provider: LbsProviderName };
      const b = request.body as { lat: number; lng: number; map?: PoiQuery['map'] };
      const data = await providers[provider].poi({ lat: b.lat, lng: b.lng, map: b.map ?? 'gcj02' });
      return { error: 0, data };
    },
  );
}

export default area('lc-lbs', lbsPlugin);
