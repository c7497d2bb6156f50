/**
 * Programs in the browser: an end user granted a program clicks its button on a published page,
 * fills the program's input form and sees the table's rows change. The editor has its own spec
 * (programs-editor.spec.ts).
 */
import { expect, test } from '@playwright/test';
import { adminApi, shot, signInWithToken, uniqueAccount } from './helpers.ts';

const at = (y: number, h = 6) => ({ pc: { x: 0, y, w: 100, h }, mobile: { x: 0, y, w: 38, h } });

async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Programs ${suffix}` }))._id;
  const code = `o${suffix}`;
  const entity = await call<{ _id: string }>(`/api/admin/project/${p}/entity/create`, {
    name: 'Orders',
    code,
  });
  for (const [name, type] of [
    ['item', 'string'],
    ['status', 'string'],
  ])
    await call(`/api/admin/project/${p}/${code}/field/create`, { name, type, field: name });
  for (const item of ['Apples', 'Pears'])
    await call(`/api/admin/data/${p}/${code}/save`, { item, status: 'new' });
  return { call, p, code, entity: entity._id, suffix };
}

test('an end user runs a program from its button on a published page and sees the rows change', async ({
  page,
  request,
}) => {
  const { call, p, code, entity } = await seed(request);
  const flow = await call<{ _id: string }>(`/api/admin/flow/${p}/create`, {
    name: 'Mark paid',
    _process: [
      {
        _type: 'input',
        _handle: 'form',
        _procedure: { fields: [{ key: 'note', name: 'Note', type: 'string', required: true }] },
      },
      {
        _type: 'query',
        _handle: 'open',
        _entity: code,
        _procedure: { where: { $and: [{ field: 'status', opt: 'eq', value: 'new' }] } },
      },
      {
        _type: 'loop',
        _handle: 'each',
        _procedure: {
          over: 'state.open',
          steps: [
            {
              _type: 'update',
              _handle: 'pay',
              _entity: code,
              _procedure: { id: 'state.item._id', values: { status: "'paid: ' + params.note" } },
            },
          ],
        },
      },
      {
        _type: 'display',
        _handle: 'done',
        _procedure: { message: 'Marked {{len(state.open)}} orders paid' },
      },
    ],
  });
  await call(`/api/admin/flow/${p}/${flow._id}/release`, {});
  const doc = {
    id: 'x',
    title: 'Orders',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets: [
      {
        id: 'buttons',
        kind: 'program',
        version: 1,
        props: { title: 'Actions', program: [{ name: 'Mark paid', flow: flow._id }] },
        layout: at(0, 10),
      },
      {
        id: 'list',
        kind: 'table',
        version: 1,
        props: { entity: code, pageSize: 10 },
        layout: at(12, 30),
      },
    ],
  };
  const pg = await call<{ _id: string }>(`/api/admin/page/${p}/create`, { name: 'Orders', document: doc });
  await call(`/api/admin/page/${p}/${pg._id}/publish`, {});
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, {
    name: 'Clerk',
    type: 'common',
  });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, {
    page: [pg._id],
    entity: [entity],
    program: [flow._id],
  });
  const account = uniqueAccount('clerk');
  await call(`/api/admin/user/${p}/create`, {
    role: role._id,
    account,
    pwd: 'secret123',
    name: 'Clara',
  });
  const member = await adminApi(request, { user: account, pwd: 'secret123' });

  await signInWithToken(page, member.token, p);
  await page.goto(`/page/${pg._id}`);
  const table = page.locator('[data-wid="list"]');
  await expect(table.getByText('Apples')).toBeVisible();
  await expect(table.getByText('new')).toHaveCount(2);
  await page.getByRole('button', { name: 'Mark paid' }).click();
  // The input form: required field checked before anything runs.
  const form = page.getByTestId('program-input');
  await expect(form).toBeVisible();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByText('Note is required')).toBeVisible();
  await form.getByLabel('Note').fill('cash');
  await shot(page, 'program-input');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByText('Marked 2 orders paid')).toBeVisible();
  // The table bound to the changed table reloads by itself.
  await expect(table.getByText('paid: cash')).toHaveCount(2);
  await expect(table.getByText('new', { exact: true })).toHaveCount(0);
  await shot(page, 'program-ran');

  // A role without the grant is refused by the server, and nothing changes.
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, { program: [] });
  const refused = await request.post(`/api/common/program/${p}/exec/${flow._id}/x`, {
    headers: { token: member.token },
    data: { data: { note: 'x' } },
  });
  expect(((await refused.json()) as { error: number }).error).toBe(1102);
});
