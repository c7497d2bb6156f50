/**
 * WeChat Pay API v3, native pay (the payer scans a QR code), written on node:crypto: no maintained
 * Node SDK on the registry covers v3 with the platform public-key mode, and the rules are short:
 * - requests carry `Authorization: WECHATPAY2-SHA256-RSA2048 mchid,nonce_str,signature,timestamp,serial_no`,
 *   the signature being SHA256-RSA over "METHOD\nPATH\nTIMESTAMP\nNONCE\nBODY\n" with the merchant key;
 * - answers and notifies are signed by the platform over "TIMESTAMP\nNONCE\nBODY\n" (headers
 *   Wechatpay-Timestamp / -Nonce / -Signature / -Serial); the serial must be the configured platform
 *   key's and the time within five minutes;
 * - a notify's resource is AES-256-GCM under the APIv3 key (ciphertext = data ‖ 16-byte tag).
 */
import crypto from 'node:crypto';
import type { WxpayConfig } from '../config.ts';
import {
  NotifyRefused,
  type PayProvider,
  type PayStart,
  type RawNotify,
  type VerifiedNotify,
} from './provider.ts';

/** Largest clock difference accepted on signed answers and notifies. */
export const WXPAY_MAX_SKEW_S = 300;

export class WxpayError extends Error {}

function header(h: RawNotify['headers'], name: string): string {
  const v = h[name] ?? h[name.toLowerCase()];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

/** The Authorization header for one request. */
export function wxpayAuthorization(
  config: Pick<WxpayConfig, 'mchId' | 'serialNo' | 'privateKey'>,
  method: string,
  pathWithQuery: string,
  body: string,
  now = Date.now(),
): string {
  const timestamp = String(Math.floor(now / 1000));
  const nonce = crypto.randomBytes(16).toString('hex');
  const message = `${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`;
  const signature = crypto.createSign('RSA-SHA256').update(message).sign(config.privateKey, 'base64');
  return (
    `WECHATPAY2-SHA256-RSA2048 mchid="${config.mchId}",nonce_str="${nonce}",` +
    `signature="${signature}",timestamp="${timestamp}",serial_no="${config.serialNo}"`
  );
}

/** Check the platform's signature over an answer or notify; answers why not, or null when it holds. */
export function wxpaySignatureProblem(
  config: Pick<WxpayConfig, 'platformPublicKey' | 'platformSerial'>,
  headers: RawNotify['headers'],
  body: string,
  now = Date.now(),
): string | null {
  const timestamp = header(headers, 'Wechatpay-Timestamp');
  const nonce = header(headers, 'Wechatpay-Nonce');
  const signature = header(headers, 'Wechatpay-Signature');
  const serial = header(headers, 'Wechatpay-Serial');
  if (!timestamp || !nonce || !signature || !serial) return 'signature headers missing';
  if (serial !== config.platformSerial) return 'signed by an unknown platform key';
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > WXPAY_MAX_SKEW_S) {
    return 'timestamp out of range';
  }
  let good = false;
  try {
    good = crypto
      .createVerify('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`)
      .verify(config.platformPublicKey, signature, 'base64');
  } catch {
    good = false;
  }
  return good ? null : 'signature invalid';
}

/** Open a notify resource (AEAD_AES_256_GCM). */
export function wxpayDecrypt(
  apiV3Key: string,
  r: { ciphertext: string; nonce: string; associated_data?: string },
): string {
  const data = Buffer.from(r.ciphertext, 'base64');
  if (data.length < 17) throw new Error('ciphertext too short');
  const decipher = crypto.createDecipheriv(
    'aes-256-gcm',
    Buffer.from(apiV3Key, 'utf8'),
    Buffer.from(r.nonce, 'utf8'),
  );
  decipher.setAuthTag(data.subarray(data.length - 16));
  if (r.associated_data) decipher.setAAD(Buffer.from(r.associated_data, 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

interface NotifyBody {
  event_type?: string;
  resource?: { algorithm?: string; ciphertext?: string; nonce?: string; associated_data?: string };
}
interface Transaction {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; currency?: string };
}

export function wxpayProvider(config: WxpayConfig, timeoutMs = 10_000): PayProvider {
  return {
    type: 'wxpay',
    async start(p: PayStart) {
      const path = '/v3/pay/transactions/native';
      const body = JSON.stringify({
        appid: config.appId,
        mchid: config.mchId,
        description: p.subject,
        out_trade_no: p.orderId,
        notify_url: p.notifyUrl,
        amount: { total: p.amount, currency: 'CNY' },
      });
      let res: Response;
      try {
        res = await fetch(config.baseUrl + path, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            authorization: wxpayAuthorization(config, 'POST', path, body),
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (e) {
        throw new WxpayError(`wxpay unreachable: ${(e as Error).message}`);
      }
      const text = await res.text();
      const headers = Object.fromEntries(res.headers.entries());
      const problem = wxpaySignatureProblem(config, headers, text);
      if (problem) throw new WxpayError(`wxpay answer refused: ${problem}`);
      let json: { code_url?: unknown; code?: unknown; message?: unknown };
      try {
        json = JSON.parse(text) as typeof json;
      } catch {
        throw new WxpayError('wxpay answer is not JSON');
      }
      if (!res.ok || typeof json.code_url !== 'string') {
        throw new WxpayError(`wxpay: ${String(json.message ?? json.code ?? res.status)}`);
      }
      return json.code_url;
    },
    verifyNotify(raw: RawNotify): VerifiedNotify {
      const problem = wxpaySignatureProblem(config, raw.headers, raw.body);
      if (problem) throw new NotifyRefused(`wxpay: ${problem}`);
      let tx: Transaction;
      try {
        const n = JSON.parse(raw.body) as NotifyBody;
        const r = n.resource;
        if (r?.algorithm !== 'AEAD_AES_256_GCM' || !r.ciphertext || !r.nonce) throw new Error('no resource');
        tx = JSON.parse(
          wxpayDecrypt(config.apiV3Key, {
            ciphertext: r.ciphertext,
            nonce: r.nonce,
            associated_data: r.associated_data,
          }),
        ) as Transaction;
      } catch (e) {
        throw new NotifyRefused(`wxpay: resource unreadable (${(e as Error).message})`);
      }
      if (tx.mchid !== config.mchId || (config.appId && tx.appid !== config.appId)) {
        throw new NotifyRefused('wxpay: another merchant');
      }
      const total = tx.amount?.total;
      if (!tx.out_trade_no || !Number.isSafeInteger(total))
        throw new NotifyRefused('wxpay: malformed transaction');
      return {
        orderId: tx.out_trade_no,
        amount: total as number,
        tradeNo: tx.transaction_id ?? '',
        paid: tx.trade_state === 'SUCCESS',
      };
    },
    ack: { type: 'application/json', body: '' },
  };
}
