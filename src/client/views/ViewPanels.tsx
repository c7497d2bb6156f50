/**
 * The data view's small panels: column settings (visible, order, width, fixed side), row labels,
 * the print modal (A4, 810 wide), the record detail modal (600) and the count chart.
 */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Descriptions, Input, InputNumber, Modal, Select, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../shared/api/fields.ts';
import { viewsApi } from '../api/views.ts';
import { fieldKind } from '../fields/registry.ts';
import { LABEL_COLORS, type LabelRule, moveKey, orderedKeys, type ViewSettings } from './view-settings.ts';

type Setter = (patch: Partial<ViewSettings>) => void;

export function ColumnSettings(props: {
  fields: Field[];
  settings: ViewSettings;
  pin: boolean;
  /** Columns may be hidden (the `view` feature); off, each shows its name without a check box. */
  view: boolean;
  set: Setter;
}) {
  const { t } = useTranslation();
  const { fields, settings: s, set } = props;
  const all = fields.map((f) => f._field);
  const byKey = new Map(fields.map((f) => [f._field, f]));
  return (
    <div data-testid="column-settings" style={{ minWidth: 420 }}>
      {orderedKeys(all, s).map((k) => {
        const f = byKey.get(k)!;
        return (
          <Space key={k} style={{ display: 'flex', marginBottom: 4 }} data-testid={`column-${k}`}>
            {props.view ? (
              <Checkbox
                checked={!s.hidden.includes(k)}
                onChange={(e) =>
                  set({ hidden: e.target.checked ? s.hidden.filter((x) => x !== k) : [...s.hidden, k] })
                }
              >
                <span style={{ display: 'inline-block', width: 110 }}>{f._option.alias || f._name}</span>
              </Checkbox>
            ) : (
              <span style={{ display: 'inline-block', width: 134 }}>{f._option.alias || f._name}</span>
            )}
            <Button
              size="small"
              icon={<ArrowUpOutlined />}
              aria-label={t('views.up')}
              onClick={() => set({ order: moveKey(all, s, k, -1) })}
            />
            <Button
              size="small"
              icon={<ArrowDownOutlined />}
              aria-label={t('views.down')}
              onClick={() => set({ order: moveKey(all, s, k, 1) })}
            />
            <InputNumber
              size="small"
              min={40}
              max={2000}
              placeholder={t('views.width')}
              aria-label={t('views.width')}
              value={s.widths[k] ?? null}
              onChange={(v) => {
                const widths = { ...s.widths };
                if (typeof v === 'number') widths[k] = v;
                else delete widths[k];
                set({ widths });
              }}
            />
            {props.pin ? (
              <Select
                size="small"
                allowClear
                style={{ width: 110 }}
                placeholder="—"
                data-testid={`fix-${k}`}
                value={s.fixed[k]}
                options={[
                  { value: 'left', label: t('views.fixLeft') },
                  { value: 'right', label: t('views.fixRight') },
                ]}
                onChange={(v) => {
                  const fixed = { ...s.fixed };
                  if (v) fixed[k] = v;
                  else delete fixed[k];
                  set({ fixed });
                }}
              />
            ) : null}
          </Space>
        );
      })}
      <Button size="small" onClick={() => set({ order: [], hidden: [], widths: {}, fixed: {} })}>
        {t('views.reset')}
      </Button>
    </div>
  );
}

const LABEL_OPS: LabelRule['opt'][] = ['eq', 'ne', 'gt', 'lt', 'contain', 'isnull', 'notnull'];

export function LabelRules(props: { fields: Field[]; rules: LabelRule[]; set: Setter }) {
  const { t } = useTranslation();
  const { fields, rules, set } = props;
  const patch = (i: number, p: Partial<LabelRule>) =>
    set({ labels: rules.map((r, j) => (j === i ? { ...r, ...p } : r)) });
  return (
    <div data-testid="label-rules" style={{ minWidth: 420 }}>
      {rules.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rules have no identity but their place
        <Space.Compact key={i} block style={{ marginBottom: 4 }}>
          <Select
            style={{ width: 120 }}
            value={r.field}
            options={fields.map((f) => ({ value: f._field, label: f._name }))}
            onChange={(field) => patch(i, { field })}
          />
          <Select
            style={{ width: 110 }}
            value={r.opt}
            options={LABEL_OPS.map((o) => ({ value: o, label: t(`grid.ops.${o}`) }))}
            onChange={(opt) => patch(i, { opt })}
          />
          {r.opt === 'isnull' || r.opt === 'notnull' ? null : (
            <Input
              style={{ width: 100 }}
              value={r.value ?? ''}
              onChange={(e) => patch(i, { value: e.target.value })}
            />
          )}
          <Select
            style={{ width: 100 }}
            aria-label={t('views.color')}
            value={r.color}
            options={LABEL_COLORS.map((c) => ({ value: c, label: <Tag color={c}>{c}</Tag> }))}
            onChange={(color) => patch(i, { color })}
          />
          <Button
            icon={<DeleteOutlined />}
            onClick={() => set({ labels: rules.filter((_, j) => j !== i) })}
          />
        </Space.Compact>
      ))}
      <Button
        size="small"
        icon={<PlusOutlined />}
        disabled={!fields.length || rules.length >= 20}
        onClick={() =>
          set({ labels: [...rules, { field: fields[0]!._field, opt: 'eq', value: '', color: 'red' }] })
        }
      >
        {t('views.addLabel')}
      </Button>
    </div>
  );
}

/**
 * A record's value as its type draws it (a picture, a file list, yes / no, option tags) where the type
 * has a cell of its own (fields/registry.ts), else as text: the detail and the cards show what the
 * table shows, not the stored text (an image's address, "true").
 */
export function FieldValue(props: {
  field: Field;
  row: Record<string, unknown>;
  text(f: Field, row: Record<string, unknown>): string;
}) {
  const kind = fieldKind(props.field._type);
  return kind ? (
    <kind.Cell field={props.field} value={props.row[props.field._field]} />
  ) : (
    props.text(props.field, props.row)
  );
}

export function RecordDetail(props: {
  fields: Field[];
  row: Record<string, unknown>;
  text(f: Field, row: Record<string, unknown>): string;
  onEdit?(): void;
  onRemove?(): void;
  onPrint?(): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      width={600}
      title={t('views.detail')}
      onCancel={props.onClose}
      footer={[
        props.onPrint ? (
          <Button key="print" onClick={props.onPrint} data-testid="detail-print">
            {t('print.now')}
          </Button>
        ) : null,
        props.onRemove ? (
          <Button key="remove" danger onClick={props.onRemove}>
            {t('views.remove')}
          </Button>
        ) : null,
        props.onEdit ? (
          <Button key="edit" type="primary" onClick={props.onEdit} data-testid="detail-edit">
            {t('common.edit')}
          </Button>
        ) : null,
      ]}
    >
      <Descriptions column={1} bordered size="small" data-testid="record-detail">
        {props.fields.map((f) => (
          <Descriptions.Item key={f._field} label={f._option.alias || f._name}>
            <FieldValue field={f} row={props.row} text={props.text} />
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Modal>
  );
}

/** Row counts by one field over the whole filtered set (the statistics call), as bars. */
export function ChartModal(props: {
  project: string;
  entity: string;
  query: unknown;
  fields: Field[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const usable = props.fields.filter((f) => f._type !== 'collection');
  const [by, setBy] = useState(usable[0]?._field ?? '');
  const [bars, setBars] = useState<{ label: string; n: number }[]>([]);
  useEffect(() => {
    if (!by) return;
    let live = true;
    viewsApi
      .summary(props.project, props.entity, props.query, { group: [by], metrics: [{ fn: 'count', as: 'n' }] })
      .then(
        (a) =>
          live &&
          setBars(a.groups.slice(0, 50).map((g) => ({ label: String(g.key[0] ?? '—'), n: g.values.n ?? 0 }))),
        () => live && setBars([]),
      );
    return () => {
      live = false;
    };
  }, [by, props.project, props.entity, props.query]);
  const max = Math.max(1, ...bars.map((b) => b.n));
  return (
    <Modal open width={640} title={t('views.chart')} footer={null} onCancel={props.onClose}>
      <Space style={{ marginBottom: 12 }}>
        {t('views.chartBy')}
        <Select
          style={{ width: 180 }}
          value={by}
          options={usable.map((f) => ({ value: f._field, label: f._name }))}
          onChange={setBy}
        />
      </Space>
      <div data-testid="view-chart">
        {bars.map((b) => (
          <div key={b.label} className="dv-bar">
            <span className="dv-bar-label">{b.label}</span>
            <span className="dv-bar-fill" style={{ width: `${(b.n / max) * 70}%` }} />
            <span>{b.n}</span>
          </div>
        ))}
      </div>
    </Modal>
  );
}
