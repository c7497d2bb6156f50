import { Empty, Skeleton } from 'antd';
import { bool, num, str } from '../../src/shared/props.ts';
import { safeUrl } from '../../src/shared/sanitize.ts';
import { priceText } from '../card-list/render.tsx';
import type { WidgetRenderProps } from '../define.ts';
import { useRuntime, useWidgetData } from '../kit/widget-context.ts';

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The record the page is about, laid out for reading on a phone. */
export function DetailCardWidget({ id, props }: WidgetRenderProps) {
  const rt = useRuntime();
  const data = useWidgetData(id);
  const r = data.rows[0];
  if (data.loading && !r) return <Skeleton active />;
  if (!r && rt.mode !== 'design')
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={str(props.emptyText, '没有找到这条记录')} />
    );
  const row = r ?? {};
  const v = (k: string) => (str(props[k]) ? text(row[str(props[k])]) : '');
  const src = safeUrl(v('imageField'));
  const round = bool(props.round);
  const h = num(props.imageHeight, 300);
  const price = str(props.priceField) ? priceText(row[str(props.priceField)], str(props.currency, '¥')) : '';
  return (
    <div
      className="lc-detail-card"
      style={{
        background: '#ffffff',
        display: 'flex',
        flexDirection: round ? 'row' : 'column',
        alignItems: round ? 'center' : 'stretch',
        gap: round ? 16 : 0,
        padding: round ? 16 : 0,
        height: '100%',
      }}
    >
      {h > 0 &&
        (src ? (
          <img
            src={src}
            alt={v('titleField')}
            style={
              round
                ? {
                    width: h,
                    height: h,
                    borderRadius: '50%',
                    objectFit: 'cover',
                    flex: 'none',
                    border: '2px solid #fff',
                  }
                : { width: '100%', height: h, objectFit: 'cover', display: 'block' }
            }
          />
        ) : (
          <div
            style={{
              width: round ? h : '100%',
              height: h,
              borderRadius: round ? '50%' : 0,
              background: '#f0f0f0',
              flex: 'none',
            }}
          />
        ))}
      <div
        style={{
          padding: round ? 0 : '12px 16px',
          display: 'flex',
          flexDirection: 'column',
          gap: 6,
          minWidth: 0,
        }}
      >
        {(price || v('tagField')) && (
          <div style={{ display: 'flex', alignItems: 'baseline', gap: 8 }}>
            {price && (
              <span
                className="lc-detail-card-price"
                style={{ color: '#e4393c', fontSize: 24, fontWeight: 700 }}
              >
                {price}
              </span>
            )}
            {v('tagField') && (
              <span
                style={{
                  fontSize: 12,
                  color: '#e4393c',
                  border: '1px solid #f5b5b6',
                  borderRadius: 4,
                  padding: '0 6px',
                }}
              >
                {v('tagField')}
              </span>
            )}
          </div>
        )}
        {v('titleField') && (
          <div
            className="lc-detail-card-title"
            style={{ fontSize: round ? 18 : 16, fontWeight: 600, color: '#222' }}
          >
            {v('titleField')}
          </div>
        )}
        {v('subtitleField') && <div style={{ fontSize: 13, color: '#888' }}>{v('subtitleField')}</div>}
        {v('descriptionField') && (
          <div style={{ fontSize: 13, color: '#555', lineHeight: 1.7, whiteSpace: 'pre-line' }}>
            {v('descriptionField')}
          </div>
        )}
      </div>
    </div>
  );
}
