/**
 * Pages: builder calls under /api/admin/page (./builder-routes.ts) and end-user calls under /api/app
 * (./app-routes.ts: pages and displays). Queries live in ./service.ts, documents in ./document.ts.
 */
import type { FastifyInstance } from 'fastify';
import { area } from '../http/plugin-kit.ts';
import pageAppRoutes from './app-routes.ts';
import pageBuilderRoutes from './builder-routes.ts';

async function pagePlugin(app: FastifyInstance): Promise<void> {
  await app.register(pageBuilderRoutes, { prefix: '/api/admin/page' });
  await app.register(pageAppRoutes, { prefix: '/api/app' });
}

export default area('lc-page', pagePlugin);
