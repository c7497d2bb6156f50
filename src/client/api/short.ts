/** Short links (`POST /api/common/utils/short`): an absolute URL of this site that redirects to `url`. */
import { post } from './request.ts';

export async function shortLink(url: string): Promise<string> {
  const r = await post<{ code: string; short: string }>('/api/common/utils/short', { url }, { quiet: true });
  return new URL(r.short, globalThis.location.origin).toString();
}
