/** Payment calls' payloads (runtime spec §7 "Payment"), shared by server and client. */
import { PRICES, type Tier } from '../constants.ts';

/** The packages a project can be upgraded to, in the upgrade screen's order. */
export const PACKAGES = ['basics', 'enterprise', 'custom'] as const;
export type PackageType = (typeof PACKAGES)[number];

export const PAY_TYPES = ['alipay', 'wxpay'] as const;
export type PayType = (typeof PAY_TYPES)[number];

/** The tier (project `_status`) a paid package gives. */
export const PACKAGE_TIER: Record<PackageType, Tier> = { basics: 1, enterprise: 2, custom: 3 };

/** A package's price in fen (the spec's prices are in yuan). */
export function packageAmount(p: PackageType): number {
  return PRICES[p] * 100;
}

/** An unpaid order of the same package younger than this is reused instead of creating one (§4). */
export const ORDER_REUSE_MS = 24 * 60 * 60 * 1000;

/** Months a paid package runs, counted to the end of the month it ends in. */
export const PACKAGE_MONTHS = 12;

/** Order status: 0 unpaid (spec), 1 paid. */
export const ORDER_UNPAID = 0;
export const ORDER_PAID = 1;

/** An order as the calls answer it (spec entity Order: _id, status, createdAt, detail.package). */
export interface OrderView {
  _id: string;
  status: number;
  createdAt: number;
  project: string;
  /** In yuan, as shown. */
  amount: number;
  payType: PayType | null;
  paidAt: number | null;
  detail: { package: PackageType };
}

/** Answer of `/api/payment/trade/pay/{orderId}/{payType}`: where the payer goes (alipay) or the QR text (wxpay). */
export interface PayAnswer {
  payType: PayType;
  /** alipay: the signed cashier URL opened in a new window; wxpay: the code_url shown as a QR code. */
  url: string;
}

/** The wizard's defaults (§4): an unknown version is basics, an unknown pay type alipay. */
export function wizardPackage(v: unknown): PackageType {
  return PACKAGES.includes(v as PackageType) ? (v as PackageType) : 'basics';
}
export function wizardPayType(v: unknown): PayType {
  return PAY_TYPES.includes(v as PayType) ? (v as PayType) : 'alipay';
}

/** End of the month `months` after `from` (local time of the server), as ms. */
export function packageExpiry(from: number, months = PACKAGE_MONTHS): number {
  const d = new Date(from);
  return new Date(d.getFullYear(), d.getMonth() + months + 1, 0, 23, 59, 59, 999).getTime();
}
