import { Empty } from 'antd';
import { str } from '../../src/shared/props.ts';
import { safeUrl } from '../../src/shared/sanitize.ts';
import type { WidgetRenderProps } from '../define.ts';

/** An external page in a sandbox without same-origin rights, so it cannot reach our token or DOM. */
export function IframeWidget({ props }: WidgetRenderProps) {
  const url = safeUrl(str(props.url));
  if (!url) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <iframe
      src={url}
      title={str(props.title, 'iframe')}
      sandbox="allow-scripts allow-forms allow-popups"
      referrerPolicy="no-referrer"
      style={{ width: '100%', height: '100%', border: 0 }}
    />
  );
}
