/** What the sandbox browser tests share: a project of their own with one published page of buttons. */
import type { APIRequestContext } from '@playwright/test';
import { adminApi } from './helpers.ts';

const LAYOUT = {
  pc: { cols: 120, rowHeight: 10, width: 1200 },
  mobile: { cols: 38, rowHeight: 10, width: 375 },
};
const at = (y: number) => ({ pc: { x: 0, y, w: 60, h: 4 }, mobile: { x: 0, y, w: 38, h: 4 } });

/** A button whose click runs `code` in the sandbox (a code command). */
export const codeButton = (id: string, text: string, y: number, code: string) => ({
  id,
  kind: 'button',
  version: 1,
  props: { text },
  layout: at(y),
  events: { onClick: [{ type: 'runCode', code }] },
});

/** A text box whose placeholder is its id. */
export const textbox = (id: string, y: number) => ({
  id,
  kind: 'textbox',
  version: 2,
  props: { placeholder: id },
  layout: at(y),
});

/**
 * A project of its own (its setup script reaches no other test's pages), with one published page
 * holding `widgets`, and `setup` as the project's setup script.
 */
export async function sandboxProject(
  request: APIRequestContext,
  name: string,
  widgets: unknown[],
  setup: string,
): Promise<{ token: string; project: string; page: string }> {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `${name} ${suffix}` }))._id;
  const page = await call<{ _id: string }>(`/api/admin/page/${p}/create`, {
    name: `${name} page`,
    document: { id: 'sandbox', title: name, version: 1, layout: LAYOUT, widgets },
  });
  await call(`/api/admin/page/${p}/${page._id}/publish`, {});
  await call(`/api/admin/project/${p}/custom/set`, { code: setup });
  return { token: call.token, project: p, page: page._id };
}
