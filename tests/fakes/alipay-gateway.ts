/**
 * A local stand-in for Alipay's gateway, following its published signing rules with test keys:
 * - GET /gateway.do (alipay.trade.page.pay): the request's RSA2 signature is checked with the
 *   merchant's public key over the sorted `k=v&…` of every parameter but `sign`; a valid one shows
 *   a cashier page with the amount and a Pay button; an invalid one a 400 page.
 * - Pay (POST /pay) posts a signed asynchronous notify (form-encoded, RSA2 with the gateway's own
 *   key, over the sorted non-empty parameters but `sign` and `sign_type`) to the request's
 *   notify_url, then sends the payer to its return_url.
 */
import crypto from 'node:crypto';
import { type Listening, listen, readBody, rsaPair } from './listen.ts';

export interface AlipayTrade {
  outTradeNo: string;
  totalAmount: string;
  subject: string;
  notifyUrl: string;
  returnUrl: string;
}

export interface FakeAlipay {
  url: string;
  gateway: string;
  appId: string;
  /** The gateway's public key (our server's ALIPAY_PUBLIC_KEY). */
  alipayPublicKey: string;
  /** The merchant's key pair (our server's ALIPAY_PRIVATE_KEY; the gateway checks with the public one). */
  merchant: { privateKey: string; publicKey: string };
  trades: Map<string, AlipayTrade>;
  /** Requests refused for a bad signature. */
  refused: number;
  /** Send the notify for a known trade; `override` changes fields, `signWith` forges. */
  notify(
    outTradeNo: string,
    override?: Record<string, string>,
    signWith?: string,
  ): Promise<{ status: number; text: string }>;
  /** Sign notify parameters as the gateway does. */
  sign(params: Record<string, string>, privateKey?: string): string;
  close(): Promise<void>;
}

export function signContent(params: Record<string, string>, skip: string[]): string {
  return Object.keys(params)
    .filter((k) => !skip.includes(k) && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startFakeAlipay(appId = '2021000000000001'): Promise<FakeAlipay> {
  const own = rsaPair();
  const merchant = rsaPair();
  const trades = new Map<string, AlipayTrade>();
  const fake = { refused: 0 } as FakeAlipay;

  const sign = (params: Record<string, string>, privateKey = own.privateKey) =>
    crypto
      .createSign('RSA-SHA256')
      .update(signContent(params, ['sign', 'sign_type']))
      .sign(privateKey, 'base64');

  async function notify(outTradeNo: string, override: Record<string, string> = {}, signWith?: string) {
    const t = trades.get(outTradeNo);
    if (!t) throw new Error(`fake alipay: no trade ${outTradeNo}`);
    const now = new Date().toISOString().replace('T', ' ').slice(0, 19);
    const params: Record<string, string> = {
      gmt_create: now,
      gmt_payment: now,
      charset: 'utf-8',
      notify_time: now,
      notify_type: 'trade_status_sync',
      notify_id: crypto.randomBytes(12).toString('hex'),
      version: '1.0',
      app_id: appId,
      seller_id: '2088000000000000',
      trade_no: `2026${outTradeNo.slice(-12)}`,
      out_trade_no: outTradeNo,
      total_amount: t.totalAmount,
      receipt_amount: t.totalAmount,
      subject: t.subject,
      trade_status: 'TRADE_SUCCESS',
      ...override,
    };
    params.sign_type = 'RSA2';
    params.sign = sign(params, signWith);
    const res = await fetch(t.notifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
    return { status: res.status, text: await res.text() };
  }

  const server: Listening = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    try {
      if (req.method === 'GET' && url.pathname === '/gateway.do') {
        const params = Object.fromEntries(url.searchParams);
        const good =
          params.app_id === appId &&
          params.sign_type === 'RSA2' &&
          crypto
            .createVerify('RSA-SHA256')
            .update(signContent(params, ['sign']))
            .verify(merchant.publicKey, params.sign ?? '', 'base64');
        if (!good || params.method !== 'alipay.trade.page.pay') {
          fake.refused++;
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          res.end('<h1>invalid-signature</h1>');
          return;
        }
        const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
        const trade: AlipayTrade = {
          outTradeNo: biz.out_trade_no ?? '',
          totalAmount: biz.total_amount ?? '',
          subject: biz.subject ?? '',
          notifyUrl: params.notify_url ?? '',
          returnUrl: params.return_url ?? '',
        };
        trades.set(trade.outTradeNo, trade);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><title>Fake Alipay cashier</title><h1>Fake Alipay cashier</h1>` +
            `<p data-testid="amount">${escapeHtml(trade.totalAmount)}</p><p>${escapeHtml(trade.subject)}</p>` +
            `<form method="post" action="/pay"><input type="hidden" name="out_trade_no" value="${escapeHtml(trade.outTradeNo)}">` +
            `<button type="submit">Pay now</button></form>`,
        );
        return;
      }
      if (req.method === 'POST' && url.pathname === '/pay') {
        const form = new URLSearchParams(await readBody(req));
        const no = form.get('out_trade_no') ?? '';
        const r = await notify(no);
        const trade = trades.get(no)!;
        if (r.text !== 'success') {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`merchant did not take the notify: ${r.status} ${r.text}`);
          return;
        }
        res.writeHead(302, { location: trade.returnUrl });
        res.end();
        return;
      }
      res.writeHead(404);
      res.end();
    } catch (e) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(e));
    }
  });

  return Object.assign(fake, {
    url: server.url,
    gateway: `${server.url}/gateway.do`,
    appId,
    alipayPublicKey: own.publicKey,
    merchant,
    trades,
    notify,
    sign,
    close: () => server.close(),
  });
}
