/**
 * Payment calls (runtime spec §7 "Payment"): package orders, starting a payment with Alipay or
 * WeChat Pay, and the providers' signed notifies that mark an order paid and upgrade its project.
 *
 * `POST /api/payment/order/package {type, project?}`: `project` (our addition) names the project to
 * upgrade; without it, the caller's own project (the first they own). Only the owner may order.
 * `/api/payment/trade/pay/{orderId}/{alipay|wxpay}` (GET or POST) answers `{payType, url}`: the
 * client opens the Alipay cashier URL in a new window, or shows the WeChat code_url as a QR code.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ORDER_PAID,
  PACKAGE_TIER,
  PACKAGES,
  PAY_TYPES,
  type PackageType,
  type PayType,
} from '../../shared/api/payment.ts';
import { TIER_NAMES } from '../../shared/constants.ts';
import { authorize } from '../access/decide.ts';
import { caller, requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { id, int, obj, ok, str } from '../http/schemas.ts';
import { NotifyRefused, type PayProvider } from './provider.ts';
import { findOrder, listOrders, markStarted, orderView, packageOrder, settleOrder } from './service.ts';
import { wxpayProvider } from './wxpay.ts';

const orderSchema = obj({
  _id: str(),
  status: int(),
  createdAt: int(),
  project: str(),
  amount: { type: 'number' },
  payType: { type: ['string', 'null'] },
  paidAt: { type: ['integer', 'null'] },
  detail: obj({ package: str() }),
});

async function paymentPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const { config } = app;
  const providers: Partial<Record<PayType, PayProvider>> = {};
  // alipay-sdk is large: read only when Alipay is configured.
  if (config.alipay) providers.alipay = (await import('./alipay.ts')).alipayProvider(config.alipay);
  if (config.wxpay) providers.wxpay = wxpayProvider(config.wxpay);

  /** The project the caller may pay for: named, else their first own one; owner only. */
  async function payableProject(request: FastifyRequest, projectId: string | undefined): Promise<string> {
    let pid = projectId;
    if (!pid) {
      const own = await db
        .selectFrom('projects')
        .select('id')
        .where('owner_id', '=', caller(request).id)
        .orderBy('created_at', 'asc')
        .executeTakeFirst();
      if (!own) fail(E.PROJECT_NOT_FOUND);
      pid = own.id;
    }
    const { actor } = await authorize(request, pid, { kind: 'app' });
    if (actor.kind !== 'owner') fail(E.ONLY_OWNER_PAYS);
    return pid;
  }

  app.post(
    '/api/payment/order/package',
    {
      schema: {
        tags: ['payment'],
        body: obj({ type: { type: 'string', enum: [...PACKAGES] }, 'project?': id() }),
        response: { 200: ok(obj({ order: orderSchema, reused: { type: 'boolean' } })) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const body = request.body as { type: PackageType; project?: string };
      const pid = await payableProject(request, body.project);
      const { order, reused } = await packageOrder(db, caller(request).id, pid, body.type);
      return { error: 0, data: { order: orderView(order), reused } };
    },
  );

  app.get(
    '/api/payment/config',
    {
      schema: {
        tags: ['payment'],
        description: 'Which pay types this server can take (our addition: the wizard offers only those).',
        response: { 200: ok(obj({ alipay: { type: 'boolean' }, wxpay: { type: 'boolean' } })) },
      },
      preHandler: requireUser,
    },
    async () => {
      const on = (p: PayType) => Boolean(providers[p] && config.publicUrl);
      return { error: 0, data: { alipay: on('alipay'), wxpay: on('wxpay') } };
    },
  );

  app.get(
    '/api/payment/order/list',
    {
      schema: { tags: ['payment'], response: { 200: ok({ type: 'array', items: orderSchema }) } },
      preHandler: requireUser,
    },
    async (request) => ({ error: 0, data: (await listOrders(db, caller(request).id)).map(orderView) }),
  );

  const payRoute = (post: boolean) => ({
    schema: {
      tags: ['payment'],
      params: obj({ orderId: id(), payType: { type: 'string', enum: [...PAY_TYPES] } }),
      ...(post ? { body: obj({}) } : {}),
      response: { 200: ok(obj({ payType: str(), url: str(4096) })) },
    },
    preHandler: requireUser,
  });
  const pay = async (request: FastifyRequest) => {
    const { orderId, payType } = request.params as { orderId: string; payType: PayType };
    const order = await findOrder(db, orderId);
    // Another user's order is answered like a missing one: ids are not confirmed to strangers.
    if (!order || order.user_id !== caller(request).id) fail(E.ORDER_NOT_FOUND);
    if (order.status === ORDER_PAID) fail(E.ORDER_PAID);
    const provider = providers[payType];
    if (!provider || !config.publicUrl) fail(E.PAYMENT_NOT_CONFIGURED, payType);
    let url: string;
    try {
      url = await provider.start({
        orderId: order.id,
        amount: order.amount,
        subject: `${TIER_NAMES[PACKAGE_TIER[order.package]].zh} (${order.package})`,
        notifyUrl: `${config.publicUrl}/api/payment/notify/${payType}`,
        returnUrl: `${config.publicUrl}/upgrade?order=${order.id}`,
      });
    } catch (e) {
      request.log.warn({ err: e, order: order.id, payType }, 'payment start failed');
      fail(E.PAYMENT_GATEWAY, (e as Error).message);
    }
    await markStarted(db, order.id, payType);
    return { error: 0, data: { payType, url } };
  };
  app.get('/api/payment/trade/pay/:orderId/:payType', payRoute(false), pay);
  app.post('/api/payment/trade/pay/:orderId/:payType', payRoute(true), pay);

  // Notifies: their own context, so their bodies stay the exact text the signature covers.
  await app.register(async (notify) => {
    const asText = (
      _r: FastifyRequest,
      body: string | Buffer,
      done: (e: Error | null, b?: unknown) => void,
    ) => done(null, String(body));
    notify.removeAllContentTypeParsers();
    notify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, asText);
    notify.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      asText,
    );

    notify.post(
      '/api/payment/notify/:payType',
      {
        schema: {
          tags: ['payment'],
          description:
            'Signed asynchronous notify from the provider. Refused (signature, merchant, order, amount) → 400, logged, nothing changed; a repeated notify of a paid order is acknowledged again and changes nothing.',
          params: obj({ payType: { type: 'string', enum: [...PAY_TYPES] } }),
          body: { type: 'string', description: 'the exact text the provider signed (form or JSON)' },
          response: {
            200: { type: 'string', description: 'Alipay notify taken: `success`' },
            204: { type: 'null', description: 'WeChat Pay notify taken' },
            400: { type: 'string', description: 'refused (logged): `{code: FAIL, error, message}`' },
            404: { type: 'string', description: 'that provider is not configured' },
          },
        },
      },
      async (request, reply) => {
        const { payType } = request.params as { payType: PayType };
        const provider = providers[payType];
        if (!provider) return refuse(reply, payType, 'not configured', 404);
        const body = typeof request.body === 'string' ? request.body : '';
        try {
          const n = provider.verifyNotify({ headers: request.headers, body });
          const order = /^[0-9a-f]{24}$/.test(n.orderId) ? await findOrder(db, n.orderId) : undefined;
          if (!order) throw new NotifyRefused(`unknown order ${n.orderId.slice(0, 64)}`);
          if (n.amount !== order.amount) {
            throw new NotifyRefused(`amount ${n.amount} differs from the order's ${order.amount}`);
          }
          if (n.paid) {
            const upgraded = await settleOrder(db, order, payType, n.tradeNo);
            request.log.info(
              { order: order.id, payType, upgraded },
              upgraded ? 'order paid' : 'paid order notified again',
            );
          }
          if (provider.ack.body === '') return reply.status(204).send();
          return reply.type(provider.ack.type).send(provider.ack.body);
        } catch (e) {
          if (!(e instanceof NotifyRefused)) throw e;
          return refuse(reply, payType, e.message, 400);
        }
      },
    );

    function refuse(reply: FastifyReply, payType: string, why: string, status: number) {
      reply.log.warn({ payType, why }, 'payment notify refused');
      return reply
        .status(status)
        .type('application/json')
        .send(JSON.stringify({ code: 'FAIL', error: E.NOTIFY_INVALID.code, message: why }));
    }
  });
}

export default area('lc-payment', paymentPlugin);
