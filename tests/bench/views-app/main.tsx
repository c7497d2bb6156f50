/**
 * bench:views baseline: a bare antd Table over the same rows the data view shows, with nothing of
 * ours (no toolbar, settings, labels, live reloads). The bench hands it rows through
 * `window.bench.show(rows, options)` and measures the paint from the page.
 */
import { Table } from 'antd';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

type Row = Record<string, unknown> & { _id: string };
interface Options {
  fields: string[];
  virtual: boolean;
  /** Group rows by this field, with a sum of `sum` per group. */
  group?: string;
  sum?: string;
}

let setView: (v: { rows: Row[]; options: Options } | null) => void = () => {};

function grouped(rows: Row[], group: string, sum: string): Row[] {
  const by = new Map<string, Row[]>();
  for (const r of rows) {
    const k = String(r[group] ?? '');
    const list = by.get(k) ?? [];
    if (list.length === 0) by.set(k, list);
    list.push(r);
  }
  return [...by].map(([k, list]) => ({
    _id: `g:${k}`,
    [group]: `${k} (${list.length})`,
    [sum]: list.reduce((a, r) => a + Number(r[sum] ?? 0), 0),
    children: list,
  }));
}

function View() {
  const [view, set] = useState<{ rows: Row[]; options: Options } | null>(null);
  setView = set;
  useEffect(() => {
    // The bench waits for this before handing rows over.
    (window as unknown as { benchReady: boolean }).benchReady = true;
  }, []);
  if (!view) return null;
  const { rows, options } = view;
  const data = options.group && options.sum ? grouped(rows, options.group, options.sum) : rows;
  return (
    <Table<Row>
      // Grouped rows are expanded on mount (defaultExpandAllRows): a new table per shape.
      key={`${options.group ?? 'plain'}-${options.virtual}`}
      size="small"
      rowKey="_id"
      bordered
      pagination={false}
      virtual={options.virtual}
      scroll={options.virtual ? { x: 'max-content', y: 560 } : { x: 'max-content' }}
      dataSource={data}
      columns={options.fields.map((f) => ({ key: f, dataIndex: f, title: f, width: 140 }))}
      {...(options.group ? { expandable: { defaultExpandAllRows: true } } : {})}
    />
  );
}

createRoot(document.getElementById('root')!).render(<View />);
(window as unknown as { bench: unknown }).bench = {
  show(rows: Row[], options: Options) {
    setView({ rows, options });
  },
  clear() {
    setView(null);
  },
};
