/**
 * A data view bound to a table hears that the table changed: saves in this tab (the record-change
 * bus of runtime/data-source.ts) and saves by others, told on the socket channel's project room as an
 * `action` of type `records` that carries the table's id and code, never row data (each viewer then
 * reloads through the data API with their own grants). After each (re)connect the view reloads once,
 * so a change made while offline is not missed. The views of one project share one socket.
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
  /** The table's id and code once known; a dataset view gives every table it reads. */
  table: RecordsChange | readonly RecordsChange[] | null;
  enabled: boolean;
  onChange: () => void;
}): LiveTable {
  const { project, table, enabled } = opts;
  const onChange = useRef(opts.onChange);
  onChange.current = opts.onChange;
  const channel = useRef<SocketChannel | null>(null);
  const list: readonly RecordsChange[] = table === null ? [] : Array.isArray(table) ? table : [table];
  const tableRef = useRef(list[0] ?? null);
  tableRef.current = list[0] ?? null;
  // The tables by value ("id code" per line): a new list each render must not subscribe again.
  const key = list.map((t) => `${t.entity} ${t.code}`).join('\n');

  // This tab's saves (forms, programs, scripts) through the shared bus.
  useEffect(() => {
    const tables = parseKey(key);
    if (!tables.length) return;
    return onEntityChanged((p, entity) => {
      if (
        p === project &&
        tables.some((t) => entity === t.entity || entity === t.code || sameEntity(project, entity, t.entity))
      )
        onChange.current();
    });
  }, [project, key]);

  useEffect(() => {
    const token = getToken();
    const tables = parseKey(key);
    if (!enabled || !tables.length || !token) return;
    const shared = acquireChannel(project, token);
    channel.current = shared.ch;
    // Joined already (another view of this project opened the channel): every later join is a rejoin.
    let first = !shared.joined;
    const offJoin = shared.onJoin(() => {
      // The first join follows the first load; later ones may have missed changes.
      if (!first) onChange.current();
      first = false;
    });
    const offAction = shared.onAction((a) => {
      const c = a.data as Partial<RecordsChange> | null;
      if (
        a.page === null &&
        a.type === RECORDS_ACTION &&
        c &&
        tables.some((t) => c.entity === t.entity || (t.code !== '' && c.code === t.code))
      )
        onChange.current();
    });
    return () => {
      offJoin();
      offAction();
      shared.release();
      if (channel.current === shared.ch) channel.current = null;
    };
  }, [project, key, enabled]);

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

function parseKey(key: string): RecordsChange[] {
  if (!key) return [];
  return key.split('\n').map((line) => {
    const [entity = '', code = ''] = line.split(' ');
    return { entity, code };
  });
}

interface ActionMessage {
  page: string | null;
  type: unknown;
  data: unknown;
}

interface SharedChannel {
  ch: SocketChannel;
  joined: boolean;
  refs: number;
  joins: Set<() => void>;
  actions: Set<(a: ActionMessage) => void>;
}

/** One socket per project and token, however many data views a page shows (ref-counted). */
const channels = new Map<string, SharedChannel>();

function acquireChannel(project: string, token: string) {
  const key = `${project}\n${token}`;
  let entry = channels.get(key);
  if (!entry) {
    const ch = new SocketChannel({ project, platform: 'app', token });
    const e: SharedChannel = { ch, joined: false, refs: 0, joins: new Set(), actions: new Set() };
    ch.socket.on('connect', () => {
      ch.call('join', {})
        .then(() => {
          e.joined = true;
          for (const f of [...e.joins]) f();
        })
        .catch(() => undefined);
    });
    ch.on<ActionMessage>('action', (a) => {
      for (const f of [...e.actions]) f(a);
    });
    channels.set(key, e);
    entry = e;
  }
  const e = entry;
  e.refs++;
  let released = false;
  return {
    ch: e.ch,
    joined: e.joined,
    onJoin(f: () => void) {
      e.joins.add(f);
      return () => e.joins.delete(f);
    },
    onAction(f: (a: ActionMessage) => void) {
      e.actions.add(f);
      return () => e.actions.delete(f);
    },
    release() {
      if (released) return;
      released = true;
      if (--e.refs > 0) return;
      channels.delete(key);
      e.ch.close();
    },
  };
}
