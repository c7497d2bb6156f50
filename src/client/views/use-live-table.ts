/**
 * A data view bound to a table hears that the table changed: saves in this tab (the record-change
 * bus of runtime/data-source.ts) and saves by others, told on the socket channel's project room as an
 * `action` of type `records` that carries the table's id and code, never row data (each viewer then
 * reloads through the data API with their own grants). After each (re)connect the view reloads once,
 * so a change made while offline is not missed.
 */
import { useEffect, useRef } from 'react';
import { getToken } from '../api/storage.ts';
import { SocketChannel } from '../realtime/socket-channel.ts';
import { onEntityChanged, sameEntity } from '../runtime/data-source.ts';
import { RECORDS_ACTION, type RecordsChange } from '../runtime/live.ts';

export interface LiveTable {
  /** Tell the others in the project that this table changed (after one's own save). */
  broadcast(): void;
}

export function useLiveTable(opts: {
  project: string;
  /** The table's id and code once known. */
  table: RecordsChange | null;
  enabled: boolean;
  onChange: () => void;
}): LiveTable {
  const { project, table, enabled } = opts;
  const onChange = useRef(opts.onChange);
  onChange.current = opts.onChange;
  const channel = useRef<SocketChannel | null>(null);
  const tableRef = useRef(table);
  tableRef.current = table;
  const id = table?.entity ?? '';
  const code = table?.code ?? '';

  // This tab's saves (forms, programs, scripts) through the shared bus.
  useEffect(() => {
    if (!id) return;
    return onEntityChanged((p, entity) => {
      if (p === project && (entity === id || entity === code || sameEntity(project, entity, id)))
        onChange.current();
    });
  }, [project, id, code]);

  useEffect(() => {
    const token = getToken();
    if (!enabled || !id || !token) return;
    const ch = new SocketChannel({ project, platform: 'app', token });
    channel.current = ch;
    let open = true;
    let first = true;
    ch.socket.on('connect', () => {
      ch.call('join', {})
        .then(() => {
          // The first join follows the first load; later ones may have missed changes.
          if (open && !first) onChange.current();
          first = false;
        })
        .catch(() => undefined);
    });
    const off = ch.on<{ page: string | null; type: unknown; data: unknown }>('action', (a) => {
      const c = a.data as Partial<RecordsChange> | null;
      if (a.page === null && a.type === RECORDS_ACTION && c && (c.entity === id || c.code === code))
        onChange.current();
    });
    return () => {
      open = false;
      off();
      ch.close();
      if (channel.current === ch) channel.current = null;
    };
  }, [project, id, code, enabled]);

  const live = useRef<LiveTable>({
    broadcast() {
      const ch = channel.current;
      const t = tableRef.current;
      if (!ch || !t) return;
      ch.call('action', { type: RECORDS_ACTION, data: t }).catch(() => {
        // Not delivered (offline): the others reload when they reconnect or next open the view.
      });
    },
  });
  return live.current;
}
