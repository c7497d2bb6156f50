/** Orders and upgrades (SQL only; routes check who may call). */
import type { Kysely } from 'kysely';
import {
  ORDER_PAID,
  ORDER_REUSE_MS,
  ORDER_UNPAID,
  type OrderView,
  PACKAGE_TIER,
  type PackageType,
  type PayType,
  packageAmount,
  packageExpiry,
} from '../../shared/api/payment.ts';
import { newId } from '../../shared/id.ts';
import type { DB, OrdersTable } from '../db/schema.ts';

export type OrderRow = OrdersTable;

/** How many orders the list answers (newest first). */
export const ORDER_LIST_LIMIT = 100;

export function orderView(o: OrderRow): OrderView {
  return {
    _id: o.id,
    status: o.status,
    createdAt: o.created_at,
    project: o.project_id,
    amount: o.amount / 100,
    payType: o.pay_type,
    paidAt: o.paid_at,
    detail: { package: o.package },
  };
}

/**
 * The package order for (user, project, package): an unpaid one created less than a day ago is
 * reused (spec §4), else a new one is made at today's price.
 */
export async function packageOrder(
  db: Kysely<DB>,
  userId: string,
  projectId: string,
  pkg: PackageType,
  now = Date.now(),
): Promise<{ order: OrderRow; reused: boolean }> {
  const open = await db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .where('package', '=', pkg)
    .where('status', '=', ORDER_UNPAID)
    .where('created_at', '>', now - ORDER_REUSE_MS)
    .where('amount', '=', packageAmount(pkg))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (open) return { order: open, reused: true };
  const order: OrderRow = {
    id: newId(now),
    user_id: userId,
    project_id: projectId,
    package: pkg,
    amount: packageAmount(pkg),
    status: ORDER_UNPAID,
    pay_type: null,
    trade_no: null,
    paid_at: null,
    created_at: now,
  };
  await db.insertInto('orders').values(order).execute();
  return { order, reused: false };
}

export async function listOrders(db: Kysely<DB>, userId: string): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(ORDER_LIST_LIMIT)
    .execute();
}

export async function findOrder(db: Kysely<DB>, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function markStarted(db: Kysely<DB>, id: string, payType: PayType): Promise<void> {
  await db
    .updateTable('orders')
    .set({ pay_type: payType })
    .where('id', '=', id)
    .where('status', '=', ORDER_UNPAID)
    .execute();
}

/**
 * Mark the order paid and upgrade its project, in one transaction. Only the first notify of a
 * payment changes anything: the update is conditional on the order still being unpaid. Answers
 * whether this call did the upgrade.
 */
export async function settleOrder(
  db: Kysely<DB>,
  order: OrderRow,
  payType: PayType,
  tradeNo: string,
  now = Date.now(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('orders')
      .set({ status: ORDER_PAID, pay_type: payType, trade_no: tradeNo.slice(0, 64), paid_at: now })
      .where('id', '=', order.id)
      .where('status', '=', ORDER_UNPAID)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    const project = await trx
      .selectFrom('projects')
      .select(['tier', 'expired_at'])
      .where('id', '=', order.project_id)
      .executeTakeFirst();
    if (!project) return true;
    const tier = Math.max(project.tier, PACKAGE_TIER[order.package]);
    // A renewal runs on from the current expiry when that is still ahead.
    const from = project.expired_at !== null && project.expired_at > now ? project.expired_at : now;
    await trx
      .updateTable('projects')
      .set({ tier, expired_at: packageExpiry(from), limited: 0, updated_at: now })
      .where('id', '=', order.project_id)
      .execute();
    return true;
  });
}
