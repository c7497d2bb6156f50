/**
 * The browser side of the desktop print client (spec: a local WebSocket on the configured port,
 * messages carrying key, data, uid). Sends one print and waits for the client's answer.
 */
import type { PrintClientMessage } from '../../shared/print.ts';

export class PrintClientUnreachable extends Error {}

/** Sends a whole HTML document to the print client; resolves with where the PDF went. */
export function sendToPrintClient(
  port: number,
  data: NonNullable<PrintClientMessage['data']>,
  timeoutMs = 60_000,
): Promise<NonNullable<PrintClientMessage['data']>> {
  return new Promise((resolve, reject) => {
    const uid = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
    let opened = false;
    let ws: WebSocket;
    try {
      ws = new WebSocket(`ws://127.0.0.1:${port}/`);
    } catch {
      reject(new PrintClientUnreachable('unreachable'));
      return;
    }
    const timer = setTimeout(() => {
      ws.close();
      reject(opened ? new Error('the print client did not answer') : new PrintClientUnreachable('timeout'));
    }, timeoutMs);
    ws.onopen = () => {
      opened = true;
      const msg: PrintClientMessage = { key: 'print', uid, data };
      ws.send(JSON.stringify(msg));
    };
    ws.onerror = () => {
      clearTimeout(timer);
      reject(
        opened ? new Error('the print client connection failed') : new PrintClientUnreachable('refused'),
      );
    };
    ws.onclose = (e) => {
      if (!opened) {
        clearTimeout(timer);
        reject(new PrintClientUnreachable(`closed ${e.code}`));
      }
    };
    ws.onmessage = (e) => {
      let m: PrintClientMessage;
      try {
        m = JSON.parse(String(e.data)) as PrintClientMessage;
      } catch {
        return;
      }
      if (m.uid !== uid) return;
      clearTimeout(timer);
      ws.close();
      if (m.key === 'printed') resolve(m.data ?? {});
      else reject(new Error(m.data?.msg ?? 'the print client refused the print'));
    };
  });
}
