/**
 * Scheduled tasks as a builder uses them (/system/schedule): the form with its term pickers and the
 * next fire times in Beijing time, a task every 3 seconds that runs its program and logs success,
 * the quota notice of a trial system, and disabling that stops further runs.
 */
import { expect, test } from '@playwright/test';
import { adminApi, PHONE, pick, shot, signInWithToken } from './helpers.ts';

const suffix = Date.now().toString(36);
const S = { project: '', token: '', table: '' };

test.beforeAll(async ({ request }) => {
  const call = await adminApi(request);
  S.token = call.token;
  S.project = (await call<{ _id: string }>('/api/common/project/create', { name: `Timers ${suffix}` }))._id;
  S.table = (
    await call<{ _id: string }>(`/api/admin/project/${S.project}/entity/create`, { name: 'Ticks' })
  )._id;
  await call(`/api/admin/project/${S.project}/${S.table}/field/create`, {
    name: 'n',
    field: 'n',
    type: 'string',
  });
  const flow = await call<{ _id: string }>(`/api/admin/flow/${S.project}/create`, {
    name: 'Tick',
    _process: [
      { _type: 'create', _handle: 'c', _entity: S.table, _procedure: { values: { n: "'tick'" } } },
      { _type: 'return', _handle: 'r', _procedure: { value: "'ticked'" } },
    ],
  });
  await call(`/api/admin/flow/${S.project}/${flow._id}/release`, {});
});

test('a builder schedules a program, sees it run and succeed, then disables it', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const call = await adminApi(request);
  await signInWithToken(page, S.token, S.project);
  await page.goto('/system/schedule');
  await expect(page.getByTestId('schedule-screen')).toBeVisible();
  await expect(page.getByTestId('schedule-quota')).toHaveText('0 / 1');

  await page.getByTestId('schedule-create').click();
  const form = page.getByTestId('schedule-form');
  await form.getByTestId('schedule-name').fill('Ticker');
  await pick(page, form.getByTestId('schedule-flow'), 'Tick');
  // Every day at 08:30: the next five fires are 08:30 Beijing time on five days.
  await form.getByTestId('schedule-time').fill('08:30');
  const preview = form.getByTestId('schedule-preview').locator('li');
  await expect(preview).toHaveCount(5);
  for (const text of await preview.allTextContents()) expect(text).toMatch(/ 08:30:00$/);
  await expect(form.getByTestId('schedule-cron-text')).toHaveText('cron: 0 30 8 * * ? *');
  // Weekdays: no day chosen yet is incomplete; Monday and Friday give fires on those days only.
  await pick(page, form.getByTestId('schedule-term'), 'On weekdays');
  await expect(form.getByTestId('schedule-preview-error')).toBeVisible();
  await form.getByLabel('Mon').check();
  await form.getByLabel('Fri').check();
  await expect(form.getByTestId('schedule-cron-text')).toHaveText('cron: 0 30 8 ? * MON,FRI *');
  for (const text of await preview.allTextContents()) {
    const day = new Date(`${text.replace(' ', 'T')}Z`).getUTCDay();
    expect([1, 5]).toContain(day);
  }
  // A custom cron every 3 seconds, for the test to see it run.
  await pick(page, form.getByTestId('schedule-term'), 'Custom cron');
  await form.getByTestId('schedule-cron').fill('0 0 0 30 2 ? *');
  await expect(form.getByTestId('schedule-preview-error')).toContainText('never runs again');
  await form.getByTestId('schedule-cron').fill('*/3 * * * * ? *');
  await expect(preview).toHaveCount(5);
  const times = (await preview.allTextContents()).map((s) => new Date(`${s.replace(' ', 'T')}Z`).getTime());
  expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([3000, 3000, 3000, 3000]);
  await shot(page, 'schedule-form-desktop');
  await page.getByTestId('schedule-save').click();
  await expect(page.getByText('Schedule saved')).toBeVisible();

  // Listed, enabled, with its next run; the trial system's quota is now used up.
  await expect(page.getByRole('cell', { name: 'Ticker' })).toBeVisible();
  await expect(page.getByTestId('schedule-toggle-Ticker')).toBeChecked();
  await expect(page.getByTestId('schedule-quota')).toHaveText('1 / 1');
  await expect(page.getByTestId('schedule-quota-full')).toContainText('reached the version limit');
  await expect(page.getByTestId('schedule-create')).toBeDisabled();

  // It runs: the log shows successes with the program's answer.
  await page.getByTestId('schedule-log-Ticker').click();
  const log = page.getByTestId('schedule-log');
  await expect(log.getByTestId('schedule-log-state').filter({ hasText: 'Success' }).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(log.getByText('"ticked"').first()).toBeVisible();
  await shot(page, 'schedule-log-desktop');
  await page.keyboard.press('Escape');
  await expect(log).toBeHidden();

  // Disabled: no further run.
  await page.getByTestId('schedule-toggle-Ticker').click();
  await expect(page.getByTestId('schedule-toggle-Ticker')).not.toBeChecked();
  const tasks = await call<{ list: { _id: string }[] }>(`/api/admin/schedule/${S.project}/schedule`);
  const id = tasks.list[0]!._id;
  const logSize = async () =>
    (
      await call<{ size: number }>(`/api/admin/schedule/${S.project}/${id}/log`, {
        page: { index: 1, size: 20 },
      })
    ).size;
  // A fire already claimed when the toggle landed may still finish: settle, then watch.
  await page.waitForTimeout(2000);
  const settled = await logSize();
  await page.waitForTimeout(7000);
  expect(await logSize()).toBe(settled);
  await page.getByTestId('schedule-log-Ticker').click();
  await expect(log.getByTestId('schedule-log-state')).toHaveCount(Math.min(settled, 20));

  // Jobs view: a disabled task is not a running job. Search by name.
  await page.keyboard.press('Escape');
  await page.getByTestId('schedule-model').getByText('Running jobs').click();
  await expect(page.getByText('No scheduled tasks yet')).toBeVisible();
  await page.getByTestId('schedule-model').getByText('Tasks').click();
  await page.getByTestId('schedule-search').fill('nomatch');
  await expect(page.getByText('No scheduled tasks yet')).toBeVisible();
  await page.getByTestId('schedule-search').fill('tick');
  await expect(page.getByRole('cell', { name: 'Ticker' })).toBeVisible();

  // Phone width: the list and the form stay usable.
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('schedule-toggle-Ticker')).toBeVisible();
  await shot(page, 'schedule-phone');

  // Remove with confirmation.
  await page.getByTestId('schedule-remove-Ticker').click();
  await page.getByTestId('schedule-remove-ok').click();
  await expect(page.getByText('Schedule removed')).toBeVisible();
  await expect(page.getByTestId('schedule-quota')).toHaveText('0 / 1');
});
