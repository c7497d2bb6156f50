/**
 * The administration's shared settings as an owner uses them (#22): a page title translated in
 * /system/i18n shows in English on the published page; an option set and an auto-numbering rule made
 * in /system/share are used by fields (rows numbered 1 and 2, an out-of-set value refused);
 * /system/deploy tells how the installation runs. Screens shot at desktop and phone size.
 */
import { expect, test } from '@playwright/test';
import { adminApi, DESKTOP, demoProject, PHONE, shot, signInWithToken } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

test('an owner translates a page title, keeps an option set and a numbering rule, and reads the deployment', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const call = await adminApi(request);
  const { project, page: pageOf } = await demoProject(call);
  const listPage = pageOf('客户一览');
  await signInWithToken(page, call.token, project);
  await page.setViewportSize(DESKTOP);

  // Languages: add English, translate the list page's title.
  await page.goto('/system/i18n');
  await expect(page.getByTestId('system-i18n')).toBeVisible();
  const suffix = Date.now().toString(36);
  if (!(await page.getByTestId('i18n-lang-en').isVisible())) {
    await page.getByTestId('i18n-new-lang').click();
    await page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: '(en)' }).click();
    await page.getByTestId('i18n-add-lang').click();
    await expect(page.getByTestId('i18n-lang-en')).toBeVisible();
  }
  const input = page.getByTestId(`i18n-text-${listPage}`);
  await expect(input).toBeEnabled();
  await input.fill(`Customer list ${suffix}`);
  await expect(page.getByTestId('i18n-save-state')).toHaveAttribute('data-state', 'saved');
  await shot(page, 'system-i18n-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'system-i18n-phone');
  await page.setViewportSize(DESKTOP);

  // The published page carries the English title.
  await page.goto(`/app/${project}/${listPage}`);
  await expect(page).toHaveTitle(`Customer list ${suffix}`);

  // Option set and numbering rule in /system/share.
  await page.goto('/system/share');
  await expect(page.getByTestId('system-share')).toBeVisible();
  const setKey = `sizes${suffix}`;
  await page.getByTestId('set-new').click();
  await page.getByTestId('set-key').fill(setKey);
  await page.getByTestId('set-name').fill('Sizes');
  const tags = page.getByTestId('set-list').locator('input');
  for (const o of ['S', 'M', 'L']) {
    await tags.fill(o);
    await tags.press('Enter');
  }
  await page.locator('.ant-modal').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId(`set-${setKey}`)).toContainText('Sizes');
  await shot(page, 'system-share-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'system-share-phone');
  await page.setViewportSize(DESKTOP);

  await page.getByRole('tab', { name: 'Auto-numbering' }).click();
  await expect(page).toHaveURL(/\/system\/share\/increment$/);
  const ruleKey = `no${suffix}`;
  await page.getByTestId('rule-new').click();
  await page.getByTestId('rule-key').fill(ruleKey);
  await page.getByTestId('rule-name').fill('Order no.');
  await page.getByTestId('rule-prefix').fill('');
  await page.getByTestId('rule-digits').fill('1');
  await expect(page.getByTestId('rule-preview')).toHaveText('1');
  await page.locator('.ant-modal').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Order no.').first()).toBeVisible();
  await shot(page, 'system-share-increment-desktop');

  // A table whose fields use them: the set's values only, and numbers 1 and 2 for two new rows.
  const code = `t${suffix}`.slice(0, 20);
  await call(`/api/admin/project/${project}/entity/create`, { name: `Numbered ${suffix}`, code });
  await call(`/api/admin/project/${project}/${code}/field/create`, {
    name: 'Size',
    type: 'option',
    field: 'size',
    option: { info: { selection: setKey } },
  });
  await call(`/api/admin/project/${project}/${code}/field/create`, {
    name: 'No',
    type: 'string',
    field: 'no',
    option: { increment: ruleKey },
  });
  const a = await call<{ no: string }>(`/api/admin/data/${project}/${code}/save`, { size: 'M' });
  const b = await call<{ no: string }>(`/api/admin/data/${project}/${code}/save`, { size: 'L' });
  expect([a.no, b.no]).toEqual(['1', '2']);
  const refused = await request.post(`/api/admin/data/${project}/${code}/save`, {
    headers: { token: call.token },
    data: { size: 'XXL' },
  });
  expect(((await refused.json()) as { error: number }).error).toBe(1960);

  // Deployment facts.
  await page.goto('/system/deploy');
  await expect(page.getByTestId('system-deploy')).toBeVisible();
  await expect(page.getByTestId('deploy-db')).toContainText(/SQLite|PostgreSQL/);
  await expect(page.getByTestId('deploy-env')).toContainText('DATABASE_URL');
  await shot(page, 'system-deploy-desktop');
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('deploy-db')).toBeVisible();
  await shot(page, 'system-deploy-phone');
});
