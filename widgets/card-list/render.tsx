import { Button, Empty, Skeleton } from 'antd';
import { type CSSProperties, Fragment } from 'react';
import { num, str } from '../../src/shared/props.ts';
import { safeUrl } from '../../src/shared/sanitize.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch, useWidgetData } from '../kit/widget-context.ts';

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** A price as the shop shows it: the sign, two decimals (none for whole amounts over 999). */
export function priceText(v: unknown, sign: string): string {
  const n = Number(v);
  if (v === null || v === undefined || v === '' || !Number.isFinite(n)) return '';
  return `${sign}${n >= 1000 && Number.isInteger(n) ? n.toString() : n.toFixed(2)}`;
}

/** Rows of the bound table as cards; a click on a card fires `onItemClick` with its row. */
export function CardListWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const dispatch = useDispatch(id);
  const row = props.layout === 'row';
  const columns = row ? 1 : Math.max(1, Math.min(6, Math.trunc(num(props.columns, 2))));
  const imageHeight = num(props.imageHeight, 140);
  const sign = str(props.currency, '¥');
  const f = (k: string) => str(props[k]);
  const button = str(props.buttonText);
  const fit = props.imageFit === 'contain' ? 'contain' : 'cover';
  const card: CSSProperties = {
    background: str(props.background, '#ffffff'),
    borderRadius: num(props.radius, 10),
    overflow: 'hidden',
    cursor: 'pointer',
    display: 'flex',
    flexDirection: row ? 'row' : 'column',
    gap: row ? 12 : 0,
    padding: row ? 10 : 0,
    boxShadow: '0 1px 2px rgba(0,0,0,0.04)',
  };
  if (data.loading && !data.rows.length) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (!data.rows.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={str(props.emptyText, '暂无数据')} />;
  return (
    <div
      className="lc-card-list"
      data-layout={row ? 'row' : 'grid'}
      style={{
        display: 'grid',
        gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
        gap: num(props.gap, 10),
      }}
    >
      {data.rows.map((r, i) => {
        const src = f('imageField') ? safeUrl(text(r[f('imageField')])) : '';
        const title = f('titleField') ? text(r[f('titleField')]) : '';
        const subtitle = f('subtitleField') ? text(r[f('subtitleField')]) : '';
        const price = f('priceField') ? priceText(r[f('priceField')], sign) : '';
        const tag = f('tagField') ? text(r[f('tagField')]) : '';
        const description = f('descriptionField') ? text(r[f('descriptionField')]) : '';
        const extra = f('extraField') ? text(r[f('extraField')]) : '';
        return (
          <Fragment key={text(r._id) || i}>
            {/* biome-ignore lint/a11y/useSemanticElements: an item holding its own button cannot itself be a button */}
            <div
              className="lc-card-list-item"
              role="button"
              tabIndex={0}
              style={card}
              onClick={() => dispatch('onItemClick', r)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') dispatch('onItemClick', r);
              }}
            >
              {src && imageHeight > 0 && (
                <img
                  src={src}
                  alt={title}
                  style={
                    row
                      ? {
                          width: imageHeight,
                          height: imageHeight,
                          objectFit: fit,
                          borderRadius: 8,
                          flex: 'none',
                        }
                      : { width: '100%', height: imageHeight, objectFit: fit, display: 'block' }
                  }
                />
              )}
              <div
                style={{
                  padding: row ? 0 : '8px 10px 10px',
                  minWidth: 0,
                  flex: 1,
                  display: 'flex',
                  flexDirection: 'column',
                  gap: 4,
                  textAlign: !row && !price && !subtitle ? 'center' : 'left',
                }}
              >
                {(title || extra) && (
                  <div style={{ display: 'flex', gap: 8, alignItems: 'baseline' }}>
                    <div
                      className="lc-card-list-title"
                      style={{
                        fontSize: 14,
                        color: '#222',
                        fontWeight: 500,
                        lineHeight: 1.4,
                        flex: 1,
                        minWidth: 0,
                      }}
                    >
                      {title}
                    </div>
                    {extra && <div style={{ fontSize: 12, color: '#999', flex: 'none' }}>{extra}</div>}
                  </div>
                )}
                {subtitle && <div style={{ fontSize: 12, color: '#888', lineHeight: 1.4 }}>{subtitle}</div>}
                {description && (
                  <div style={{ fontSize: 12, color: '#666', lineHeight: 1.5 }}>{description}</div>
                )}
                {(price || tag || button) && (
                  <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginTop: 'auto' }}>
                    {price && (
                      <span
                        className="lc-card-list-price"
                        style={{ color: '#e4393c', fontSize: 16, fontWeight: 600 }}
                      >
                        {price}
                      </span>
                    )}
                    {tag && (
                      <span
                        className="lc-card-list-tag"
                        style={{
                          fontSize: 11,
                          color: '#e4393c',
                          border: '1px solid #f5b5b6',
                          borderRadius: 4,
                          padding: '0 4px',
                        }}
                      >
                        {tag}
                      </span>
                    )}
                    {button && (
                      <Button
                        size="small"
                        shape="round"
                        style={{ marginLeft: 'auto' }}
                        onClick={(e) => {
                          e.stopPropagation();
                          dispatch('onButtonClick', r);
                        }}
                      >
                        {button}
                      </Button>
                    )}
                  </div>
                )}
              </div>
            </div>
          </Fragment>
        );
      })}
    </div>
  );
}
