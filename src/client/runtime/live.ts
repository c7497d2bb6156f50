/**
 * Live pages: a page holding a real-time widget (a kind whose definition says it is `live`) joins its page room on the socket
 * channel. When someone saves records of a table through such a widget, the others on the page are
 * told which table changed (an `action` of type `records`, carrying no row data) and reload the
 * widgets bound to it through the data API — so each viewer still reads only what their grants allow.
 *
 * On every (re)connect the page is entered again and its live widgets reload once, so a change made
 * while a viewer was offline (or between its first load and its joining the room) is never missed.
 *
 * The channel's code (socket.io and the payload codec) loads when a live page first needs it, not with
 * the renderer every page load runs.
 */
import { useEffect, useRef, useState } from 'react';
import { getWidget } from '../../../widgets/registry.ts';
import type { WidgetInstance } from '../../shared/page-document.ts';
import { RECORDS_ACTION, type RecordsChange } from '../../shared/realtime.ts';
import { getToken } from '../api/storage.ts';
import type { SocketChannel } from '../realtime/socket-channel.ts';

export { RECORDS_ACTION, type RecordsChange };

export type LiveStatus = 'off' | 'connecting' | 'live' | 'offline';

/** A widget that asks for the live channel: its kind is live with these props (its `live` says). */
export function isLiveWidget(w: WidgetInstance): boolean {
  return getWidget(w.kind)?.live?.(w.props) === true;
}

function isChange(v: unknown): v is RecordsChange {
  const c = v as RecordsChange | null;
  return typeof c === 'object' && c !== null && typeof c.entity === 'string' && typeof c.code === 'string';
}

/**
 * Joins the page's room while `enabled`; `onChange` runs for changes others broadcast and with `null`
 * after each (re)connect. Answers the connection status and a broadcaster for one's own changes.
 */
export function useLivePage(opts: {
  project: string;
  pageId: string | undefined;
  enabled: boolean;
  onChange: (change: RecordsChange | null) => void;
}): { status: LiveStatus; broadcast: (change: RecordsChange) => void } {
  const { project, pageId, enabled } = opts;
  const onChange = useRef(opts.onChange);
  onChange.current = opts.onChange;
  const channel = useRef<SocketChannel | null>(null);
  const [status, setStatus] = useState<LiveStatus>('off');

  useEffect(() => {
    const token = getToken();
    if (!enabled || !pageId || !token) {
      setStatus('off');
      return;
    }
    setStatus('connecting');
    let open = true;
    let ch: SocketChannel | null = null;
    let off = () => {};
    import('../realtime/socket-channel.ts')
      .then(({ SocketChannel }) => {
        if (!open) return;
        const c = new SocketChannel({ project, platform: 'app', token });
        ch = c;
        channel.current = c;
        c.socket.on('connect', () => {
          c.call('enter', { page: pageId })
            .then(() => {
              if (!open) return;
              setStatus('live');
              onChange.current(null);
            })
            .catch(() => open && setStatus('offline'));
        });
        c.socket.on('disconnect', () => open && setStatus('offline'));
        c.socket.on('connect_error', () => open && setStatus('offline'));
        off = c.on<{ page: string | null; type: unknown; data: unknown }>('action', (a) => {
          if (a.page === pageId && a.type === RECORDS_ACTION && isChange(a.data)) onChange.current(a.data);
        });
      })
      .catch(() => open && setStatus('offline'));
    return () => {
      open = false;
      off();
      ch?.close();
      if (ch && channel.current === ch) channel.current = null;
    };
  }, [project, pageId, enabled]);

  // One broadcaster for the page's life: it reads the channel and page id of the latest render.
  const page = useRef(pageId);
  page.current = pageId;
  const broadcast = useRef((change: RecordsChange) => {
    const ch = channel.current;
    if (!ch || !page.current) return;
    ch.call('action', { page: page.current, type: RECORDS_ACTION, data: change }).catch(() => {
      // Not delivered (offline): the others reload when they reconnect or next open the page.
    });
  });
  return { status, broadcast: broadcast.current };
}
