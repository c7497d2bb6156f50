/** Picking a record of a table for a test run, and showing what a change did to a row. */
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataRecord, wb } from '../api/workbench.ts';

/** A record of a table found by its name (the table's search), or typed by id. */
export function RecordPicker(props: {
  project: string;
  entity: string;
  value: string | undefined;
  onChange: (id: string | undefined, row: DataRecord | undefined) => void;
}) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<DataRecord[]>([]);
  const [loading, setLoading] = useState(false);
  const search = (text: string) => {
    setLoading(true);
    const q = text.trim()
      ? wb.search(props.project, props.entity, text.trim())
      : wb.rows(props.project, props.entity, { page: { index: 1, size: 20 } });
    q.then(
      (r) => setRows(r.data),
      () => setRows([]),
    ).finally(() => setLoading(false));
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first page of the table
  useEffect(() => search(''), [props.project, props.entity]);
  const label = (r: DataRecord) => {
    if (typeof r.__name === 'string' && r.__name) return r.__name;
    const text = Object.entries(r).find(([k, v]) => !k.startsWith('_') && typeof v === 'string' && v);
    return text ? `${text[1]}` : r._id;
  };
  return (
    <Select
      showSearch
      allowClear
      filterOption={false}
      onSearch={search}
      loading={loading}
      value={props.value}
      onChange={(v?: string) =>
        props.onChange(
          v,
          rows.find((r) => r._id === v),
        )
      }
      placeholder={t('progEditor.pickRecord')}
      options={rows.map((r) => ({ value: r._id, label: `${label(r)} · ${r._id.slice(-6)}` }))}
      data-testid="test-record"
      style={{ width: '100%' }}
    />
  );
}

/** The fields a change touches, as `field: old → new`. */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const parts: string[] = [];
  for (const k of keys) {
    if (k.startsWith('_') || k === 'createdAt' || k === 'updatedAt') continue;
    const a = JSON.stringify(before?.[k] ?? null);
    const b = JSON.stringify(after?.[k] ?? null);
    if (a !== b) parts.push(`${k}: ${a} → ${b}`);
  }
  return parts.join('; ');
}
