import { Empty } from 'antd';
import { num, str } from '../../src/shared/props.ts';
import { safeUrl } from '../../src/shared/sanitize.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch } from '../kit/widget-context.ts';

/** An image, optionally a link; a click fires `onClick` (its actions run) and follows the link. */
export function ImageWidget({ id, props }: WidgetRenderProps) {
  const dispatch = useDispatch(id);
  const src = safeUrl(str(props.src));
  const link = safeUrl(str(props.link));
  if (!src) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  const fit = props.fit === 'contain' || props.fit === 'fill' ? props.fit : 'cover';
  const img = (
    // biome-ignore lint/a11y/useKeyWithClickEvents: an image a builder may make clickable; keyboard users reach the same actions through buttons
    <img
      onClick={() => dispatch('onClick')}
      src={src}
      alt={str(props.alt)}
      style={{ width: '100%', height: '100%', objectFit: fit, borderRadius: num(props.radius, 0) }}
    />
  );
  return link ? (
    <a href={link} target="_blank" rel="noopener noreferrer">
      {img}
    </a>
  ) : (
    img
  );
}
