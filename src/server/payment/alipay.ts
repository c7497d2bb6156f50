/**
 * Alipay computer-website payment through the official `alipay-sdk` (RSA2): the cashier URL is built
 * and signed locally (the payer's browser goes there), and asynchronous notifies are checked against
 * Alipay's public key and our app id.
 */
import { AlipaySdk } from 'alipay-sdk';
import type { AlipayConfig } from '../config.ts';
import {
  NotifyRefused,
  type PayProvider,
  type PayStart,
  type RawNotify,
  type VerifiedNotify,
} from './provider.ts';

/** Yuan with two decimals from fen, and back, without floating point. */
export function yuan(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}
export function fen(yuanText: string): number {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(yuanText);
  if (!m) return Number.NaN;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

export function alipayProvider(config: AlipayConfig): PayProvider {
  const sdk = new AlipaySdk({
    appId: config.appId,
    privateKey: config.privateKey,
    alipayPublicKey: config.alipayPublicKey,
    gateway: config.gateway,
    keyType: config.privateKey.includes('BEGIN RSA PRIVATE KEY') ? 'PKCS1' : 'PKCS8',
    signType: 'RSA2',
  });
  return {
    type: 'alipay',
    async start(p: PayStart) {
      return sdk.pageExecute('alipay.trade.page.pay', 'GET', {
        bizContent: {
          out_trade_no: p.orderId,
          total_amount: yuan(p.amount),
          subject: p.subject,
          product_code: 'FAST_INSTANT_TRADE_PAY',
        },
        notifyUrl: p.notifyUrl,
        returnUrl: p.returnUrl,
      });
    },
    verifyNotify(raw: RawNotify): VerifiedNotify {
      const form = Object.fromEntries(new URLSearchParams(raw.body));
      let signed = false;
      try {
        // Values are already URL-decoded here: V2 checks them as they are.
        signed = sdk.checkNotifySignV2(form);
      } catch {
        signed = false;
      }
      if (!signed) throw new NotifyRefused('alipay: signature invalid');
      if (form.app_id !== config.appId) throw new NotifyRefused('alipay: another app id');
      const amount = fen(form.total_amount ?? '');
      if (!form.out_trade_no || !Number.isFinite(amount)) throw new NotifyRefused('alipay: malformed notify');
      return {
        orderId: form.out_trade_no,
        amount,
        tradeNo: form.trade_no ?? '',
        paid: form.trade_status === 'TRADE_SUCCESS' || form.trade_status === 'TRADE_FINISHED',
      };
    },
    ack: { type: 'text/plain', body: 'success' },
  };
}
