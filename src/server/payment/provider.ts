/** What a payment provider does for us: start a payment, and turn a signed notify into a verified fact. */
import type { PayType } from '../../shared/api/payment.ts';

export interface PayStart {
  orderId: string;
  /** In fen. */
  amount: number;
  subject: string;
  notifyUrl: string;
  returnUrl: string;
}

/** A notify whose signature checked out. */
export interface VerifiedNotify {
  orderId: string;
  /** In fen, as the provider reports it paid. */
  amount: number;
  tradeNo: string;
  /** false: a verified notify about a payment not (yet) made; it changes nothing. */
  paid: boolean;
}

/** The raw notify as received: headers and the body text exactly as sent (signatures cover it). */
export interface RawNotify {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface PayProvider {
  type: PayType;
  /** alipay: the signed cashier URL; wxpay: the native-pay code_url. */
  start(p: PayStart): Promise<string>;
  /** Verify and decode; throws NotifyRefused when the signature, merchant or payload is wrong. */
  verifyNotify(raw: RawNotify): VerifiedNotify;
  /** The body the provider expects when a notify was taken (and its content type). */
  ack: { type: string; body: string };
}

/** A notify that failed its checks (logged, answered with the provider's failure form). */
export class NotifyRefused extends Error {}
