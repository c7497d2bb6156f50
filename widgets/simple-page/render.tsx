import { Empty } from 'antd';
import { str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useRuntime } from '../kit/widget-context.ts';

export function SimplePageWidget({ props }: WidgetRenderProps) {
  const rt = useRuntime();
  const page = str(props.page);
  return (
    <div style={{ height: '100%' }}>
      {str(props.title) && <div style={{ fontWeight: 600, marginBottom: 8 }}>{str(props.title)}</div>}
      {page && rt.renderPage ? rt.renderPage(page) : <Empty description={page || undefined} />}
    </div>
  );
}
