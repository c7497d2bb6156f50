/**
 * A local stand-in for WeChat Pay API v3, following its published rules with test keys:
 * - POST /v3/pay/transactions/native: the Authorization header (WECHATPAY2-SHA256-RSA2048) is
 *   checked with the merchant's public key and serial over "POST\nPATH\nTS\nNONCE\nBODY\n"; the
 *   answer `{code_url}` is signed with the platform key (Wechatpay-* headers).
 * - `pay(outTradeNo)` plays the payer scanning the code: the transaction is encrypted with the
 *   APIv3 key (AES-256-GCM) and notified, signed by the platform, to the order's notify_url.
 */
import crypto from 'node:crypto';
import { type Listening, listen, readBody, rsaPair } from './listen.ts';

export interface WxTrade {
  outTradeNo: string;
  total: number;
  notifyUrl: string;
  description: string;
}

export interface FakeWxpay {
  url: string;
  mchId: string;
  appId: string;
  merchantSerial: string;
  merchant: { privateKey: string; publicKey: string };
  platform: { privateKey: string; publicKey: string };
  platformSerial: string;
  apiV3Key: string;
  trades: Map<string, WxTrade>;
  refused: number;
  /** Pay a trade: send the notify; `tx` overrides transaction fields, `opts` forges the envelope. */
  pay(
    outTradeNo: string,
    tx?: Record<string, unknown>,
    opts?: { signWith?: string; serial?: string; key?: string; timestamp?: number; tamper?: boolean },
  ): Promise<{ status: number; text: string }>;
  /** The raw notify (headers and body) for a trade, for replays. */
  buildNotify(
    outTradeNo: string,
    tx?: Record<string, unknown>,
    opts?: { signWith?: string; serial?: string; key?: string; timestamp?: number },
  ): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

function platformHeaders(
  privateKey: string,
  serial: string,
  body: string,
  ts = Math.floor(Date.now() / 1000),
) {
  const nonce = crypto.randomBytes(16).toString('hex');
  const signature = crypto
    .createSign('RSA-SHA256')
    .update(`${ts}\n${nonce}\n${body}\n`)
    .sign(privateKey, 'base64');
  return {
    'Wechatpay-Timestamp': String(ts),
    'Wechatpay-Nonce': nonce,
    'Wechatpay-Signature': signature,
    'Wechatpay-Serial': serial,
  };
}

function parseAuthorization(h: string): Record<string, string> | null {
  const m = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(h);
  if (!m) return null;
  const out: Record<string, string> = {};
  for (const part of m[1]!.matchAll(/(\w+)="([^"]*)"/g)) out[part[1]!] = part[2]!;
  return out;
}

export async function startFakeWxpay(): Promise<FakeWxpay> {
  const merchant = rsaPair();
  const platform = rsaPair();
  const fake = {
    mchId: '1900000109',
    appId: 'wxd678efh567hg6787',
    merchantSerial: crypto.randomBytes(20).toString('hex').toUpperCase(),
    platformSerial: `PUB_KEY_ID_${crypto.randomBytes(8).toString('hex')}`,
    apiV3Key: crypto.randomBytes(16).toString('hex'),
    merchant,
    platform,
    trades: new Map<string, WxTrade>(),
    refused: 0,
  } as FakeWxpay;

  function buildNotify(
    outTradeNo: string,
    tx: Record<string, unknown> = {},
    opts: { signWith?: string; serial?: string; key?: string; timestamp?: number } = {},
  ) {
    const t = fake.trades.get(outTradeNo);
    if (!t) throw new Error(`fake wxpay: no trade ${outTradeNo}`);
    const transaction = {
      mchid: fake.mchId,
      appid: fake.appId,
      out_trade_no: outTradeNo,
      transaction_id: `4200${crypto.randomBytes(12).toString('hex')}`,
      trade_type: 'NATIVE',
      trade_state: 'SUCCESS',
      trade_state_desc: '支付成功',
      success_time: new Date().toISOString(),
      payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
      amount: { total: t.total, payer_total: t.total, currency: 'CNY', payer_currency: 'CNY' },
      ...tx,
    };
    const nonce = crypto.randomBytes(6).toString('hex');
    const aad = 'transaction';
    const cipher = crypto.createCipheriv(
      'aes-256-gcm',
      Buffer.from(opts.key ?? fake.apiV3Key, 'utf8'),
      Buffer.from(nonce, 'utf8'),
    );
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const enc = Buffer.concat([
      cipher.update(JSON.stringify(transaction), 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    const body = JSON.stringify({
      id: crypto.randomUUID(),
      create_time: new Date().toISOString(),
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: {
        original_type: 'transaction',
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: enc.toString('base64'),
        associated_data: aad,
        nonce,
      },
    });
    const headers = {
      'content-type': 'application/json',
      ...platformHeaders(
        opts.signWith ?? platform.privateKey,
        opts.serial ?? fake.platformSerial,
        body,
        opts.timestamp,
      ),
    };
    return { headers, body };
  }

  async function pay(
    outTradeNo: string,
    tx: Record<string, unknown> = {},
    opts: { signWith?: string; serial?: string; key?: string; timestamp?: number; tamper?: boolean } = {},
  ) {
    const n = buildNotify(outTradeNo, tx, opts);
    const body = opts.tamper ? n.body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" ') : n.body;
    const res = await fetch(fake.trades.get(outTradeNo)!.notifyUrl, {
      method: 'POST',
      headers: n.headers,
      body,
    });
    return { status: res.status, text: await res.text() };
  }

  const server: Listening = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readBody(req);
    const answer = (status: number, json: unknown) => {
      const text = JSON.stringify(json);
      res.writeHead(status, {
        'content-type': 'application/json',
        ...platformHeaders(platform.privateKey, fake.platformSerial, text),
      });
      res.end(text);
    };
    if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/native') {
      const auth = parseAuthorization(String(req.headers.authorization ?? ''));
      const good =
        auth &&
        auth.mchid === fake.mchId &&
        auth.serial_no === fake.merchantSerial &&
        Math.abs(Date.now() / 1000 - Number(auth.timestamp)) < 300 &&
        crypto
          .createVerify('RSA-SHA256')
          .update(`POST\n${url.pathname}${url.search}\n${auth.timestamp}\n${auth.nonce_str}\n${body}\n`)
          .verify(merchant.publicKey, auth.signature ?? '', 'base64');
      if (!good) {
        fake.refused++;
        answer(401, { code: 'SIGN_ERROR', message: '签名错误' });
        return;
      }
      const b = JSON.parse(body) as {
        mchid: string;
        out_trade_no: string;
        notify_url: string;
        description: string;
        amount: { total: number };
      };
      if (b.mchid !== fake.mchId || !Number.isSafeInteger(b.amount?.total) || b.amount.total <= 0) {
        answer(400, { code: 'PARAM_ERROR', message: '参数错误' });
        return;
      }
      fake.trades.set(b.out_trade_no, {
        outTradeNo: b.out_trade_no,
        total: b.amount.total,
        notifyUrl: b.notify_url,
        description: b.description,
      });
      answer(200, { code_url: `weixin://wxpay/bizpayurl?pr=${crypto.randomBytes(5).toString('hex')}` });
      return;
    }
    // The payer's phone: "scan and pay" the given trade (e2e drives this like a user would).
    const m = /^\/fake\/pay\/([0-9a-f]{24})$/.exec(url.pathname);
    if (req.method === 'POST' && m) {
      const r = await pay(m[1]!);
      res.writeHead(r.status === 204 ? 200 : 502, { 'content-type': 'text/plain' });
      res.end(`${r.status}`);
      return;
    }
    res.writeHead(404);
    res.end();
  });

  return Object.assign(fake, { url: server.url, pay, buildNotify, close: () => server.close() });
}
