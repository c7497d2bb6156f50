/**
 * The property panel of the column and line charts: categories and values edited together as
 * (category, value) rows, which the generated form could only show as two unrelated lists; the other
 * props stay generated. Loaded only by the designer (each kind's panel.tsx re-exports it).
 */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, InputNumber, Space } from 'antd';
import { isBinding } from '../../src/shared/expr/index.ts';
import type { PanelProps } from '../define.ts';

const TEXT = {
  zh: {
    series: '数据系列（分类，数值）',
    category: '分类',
    value: '数值',
    moveUp: '上移',
    moveDown: '下移',
    removeRow: '删除',
    addRow: '添加',
    bindHint: '在分类或数值上使用 ƒx 可绑定到数据。',
  },
  en: {
    series: 'Series (category, value)',
    category: 'Category',
    value: 'Value',
    moveUp: 'Move up',
    moveDown: 'Move down',
    removeRow: 'Remove',
    addRow: 'Add',
    bindHint: 'Use ƒx on Categories or Values to bind them to data.',
  },
};

export function SeriesPanel(props: PanelProps) {
  const text = TEXT[props.lang];
  const cats = props.values.categories;
  const vals = props.values.value;
  const bound = isBinding(cats) || isBinding(vals) || !Array.isArray(cats) || !Array.isArray(vals);
  const others = Object.keys(props.def.schema.properties).filter((k) => k !== 'categories' && k !== 'value');
  const n = bound ? 0 : Math.max((cats as unknown[]).length, (vals as unknown[]).length);
  const rows = Array.from({ length: n }, (_, i) => ({
    cat: String((cats as unknown[])[i] ?? ''),
    val: (vals as unknown[])[i],
  }));
  const set = (next: { cat: string; val: unknown }[]) =>
    props.setProps({ categories: next.map((r) => r.cat), value: next.map((r) => r.val) });
  const move = (i: number, d: number) => {
    const next = rows.slice();
    [next[i], next[i + d]] = [next[i + d]!, next[i]!];
    set(next);
  };
  const err = (i: number) => props.errors[`value.${i}`] ?? props.errors[`categories.${i}`];
  return (
    <div data-testid="custom-panel-series">
      {others.slice(0, 2).map(props.field)}
      {bound ? (
        <>
          {props.field('categories')}
          {props.field('value')}
        </>
      ) : (
        <div className="panel-field">
          <div className="panel-label">
            <span>{text.series}</span>
          </div>
          {rows.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions
            <div key={i}>
              <Space.Compact style={{ width: '100%' }} data-testid={`series-row-${i}`}>
                <Input
                  value={r.cat}
                  placeholder={text.category}
                  onChange={(e) => set(rows.map((x, j) => (j === i ? { ...x, cat: e.target.value } : x)))}
                />
                <InputNumber
                  value={typeof r.val === 'number' ? r.val : null}
                  placeholder={text.value}
                  status={err(i) ? 'error' : undefined}
                  onChange={(v) => set(rows.map((x, j) => (j === i ? { ...x, val: v ?? 0 } : x)))}
                  style={{ width: 110 }}
                />
                <Button
                  icon={<ArrowUpOutlined />}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                  aria-label={text.moveUp}
                />
                <Button
                  icon={<ArrowDownOutlined />}
                  disabled={i === n - 1}
                  onClick={() => move(i, 1)}
                  aria-label={text.moveDown}
                />
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => set(rows.filter((_, j) => j !== i))}
                  aria-label={text.removeRow}
                />
              </Space.Compact>
              {err(i) ? <div className="panel-error">{err(i)}</div> : null}
            </div>
          ))}
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={() => set([...rows, { cat: '', val: 0 }])}
            data-testid="series-add"
          >
            {text.addRow}
          </Button>
          <div className="panel-muted">{text.bindHint}</div>
        </div>
      )}
      {others.slice(2).map(props.field)}
    </div>
  );
}
