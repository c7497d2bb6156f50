import { Carousel, Empty } from 'antd';
import { bool, num, strings } from '../../src/shared/props.ts';
import { safeUrl } from '../../src/shared/sanitize.ts';
import type { WidgetRenderProps } from '../define.ts';

/** Image carousel; only string entries are taken as slides (spec), unsafe URLs dropped. */
export function SwiperWidget({ props }: WidgetRenderProps) {
  const slides = strings(props.list).map(safeUrl).filter(Boolean);
  if (!slides.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <Carousel
      autoplay={bool(props.autoplay, true)}
      autoplaySpeed={num(props.interval, 2000)}
      dots={bool(props.dots, true)}
    >
      {slides.map((src) => (
        <div key={src}>
          <img src={src} alt="" style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
        </div>
      ))}
    </Carousel>
  );
}
