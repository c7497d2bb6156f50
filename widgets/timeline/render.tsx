import { Empty, Skeleton, Timeline } from 'antd';
import { str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useWidgetData } from '../kit/widget-context.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** A time field's value as shown: epoch ms or a date text, as `YYYY-MM-DD HH:mm` (local time). */
export function timeText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  const d = new Date(typeof v === 'number' ? v : String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The bound rows as timeline nodes; the first (the latest, in the default order) is highlighted. */
export function TimelineWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const f = (k: string) => str(props[k]);
  const color = str(props.color, '#52c41a');
  if (data.loading && !data.rows.length) return <Skeleton active />;
  if (!data.rows.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={str(props.emptyText, '暂无记录')} />;
  const text = (r: Record<string, unknown>, k: string) => (f(k) && r[f(k)] != null ? String(r[f(k)]) : '');
  return (
    <div className="lc-timeline" style={{ padding: '16px 12px 0', background: '#ffffff' }}>
      <Timeline
        items={data.rows.map((r, i) => ({
          key: String(r._id ?? i),
          color: i === 0 ? color : 'gray',
          content: (
            <div>
              <div style={{ color: i === 0 ? '#222' : '#666', fontWeight: i === 0 ? 600 : 400 }}>
                {text(r, 'titleField')}
              </div>
              {text(r, 'descriptionField') && (
                <div style={{ color: '#888', fontSize: 12 }}>{text(r, 'descriptionField')}</div>
              )}
              {f('timeField') && (
                <div style={{ color: '#aaa', fontSize: 12 }}>{timeText(r[f('timeField')])}</div>
              )}
            </div>
          ),
        }))}
      />
    </div>
  );
}
