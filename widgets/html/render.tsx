import { str } from '../../src/shared/props.ts';
import { sanitizeHtml } from '../../src/shared/sanitize.ts';
import type { WidgetRenderProps } from '../define.ts';

export function HtmlWidget({ props }: WidgetRenderProps) {
  return (
    <div>
      {str(props.title) && <div style={{ fontWeight: 600, marginBottom: 8 }}>{str(props.title)}</div>}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: allow-list sanitised here and on load */}
      <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(str(props.html)) }} />
    </div>
  );
}
