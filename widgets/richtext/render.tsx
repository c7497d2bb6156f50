import { str } from '../../src/shared/props.ts';
import { sanitizeHtml } from '../../src/shared/sanitize.ts';
import type { WidgetRenderProps } from '../define.ts';

/** Stored HTML is sanitised on load and again here, so a binding cannot inject markup. */
export function RichtextWidget({ props }: WidgetRenderProps) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: allow-list sanitised just above
  return <div className="lc-richtext" dangerouslySetInnerHTML={{ __html: sanitizeHtml(str(props.html)) }} />;
}
