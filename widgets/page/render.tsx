import { Empty } from 'antd';
import { bool, num, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useRuntime } from '../kit/widget-context.ts';

/** Embeds another page; the runtime supplies the nested renderer. */
export function PageWidget({ props }: WidgetRenderProps) {
  const rt = useRuntime();
  const page = str(props.page);
  const style = { height: num(props.height, 400), border: bool(props.border) ? '1px solid #eee' : undefined };
  return (
    <div style={style} data-page={page}>
      {page && rt.renderPage ? rt.renderPage(page) : <Empty description={page || undefined} />}
    </div>
  );
}
