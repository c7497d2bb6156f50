/**
 * Builder code that eats all memory (issue #17, item 3): a setup script's allocation loop kills the
 * sandbox frame's process only. The page stays usable, says its code stopped, and a later code
 * command runs in a fresh sandbox (without the setup script, which would only run out of memory
 * again).
 */
import { expect, test } from '@playwright/test';
import { signInWithToken } from './helpers.ts';
import config from './playwright.config.ts';
import { codeButton, sandboxProject, textbox } from './sandbox-helpers.ts';

// A small V8 heap, so the loop runs out of memory in a second instead of filling a shared machine's
// gigabytes first (Chromium's own limit is about 4 GB): out of memory is out of memory either way.
// Without the frame's own process this crash would take the page with it.
const launch = config.use?.launchOptions ?? {};
test.use({
  launchOptions: { ...launch, args: [...(launch.args ?? []), '--js-flags=--max-old-space-size=256'] },
});

test('an allocation loop in a setup script kills only the sandbox: the page stays, says so, runs code again', async ({
  page,
  request,
}) => {
  const s = await sandboxProject(
    request,
    'Memory',
    [
      textbox('name', 0),
      // A plain action, no code: the page itself works on.
      {
        ...codeButton('fill', 'Fill', 6, ''),
        events: { onClick: [{ type: 'setValue', target: 'name', value: 'filled after the crash' }] },
      },
      codeButton('run', 'Run code', 12, "api.notify('code runs again, setup ran: ' + typeof fromSetup)"),
    ],
    'globalThis.fromSetup = 1;\nconst hog = [];\nfor (;;) hog.push(new Array(1e6).fill(1.5));',
  );
  await signInWithToken(page, s.token, s.project);
  let crashed = false;
  // Playwright takes a crash of any of a page's frames for the page's own and stops driving it: the
  // steps below go through a CDP session of the page, whose main frame lives in another process.
  page.on('crash', () => {
    crashed = true;
  });
  const cdp = await page.context().newCDPSession(page);
  const run = async <T>(expression: string): Promise<T> => {
    const r = (await cdp.send('Runtime.evaluate', {
      expression,
      returnByValue: true,
      awaitPromise: true,
    })) as {
      result: { value: T };
    };
    return r.result.value;
  };
  const bodyText = () => run<string>('document.body ? document.body.innerText : ""');
  const frames = () => run<number>('document.querySelectorAll("iframe[data-lc-sandbox]").length');
  await page.goto(`/page/${s.page}`, { waitUntil: 'commit' });
  await expect.poll(() => run<boolean>('!!document.querySelector(\'[data-wid="name"] input\')')).toBe(true);

  // The sandbox's process died, not the page's: the page says the code stopped.
  await expect.poll(bodyText, { timeout: 60_000 }).toContain("The page's code stopped");
  expect(crashed).toBe(true);
  expect(await frames()).toBe(0);

  // The page stays usable: an action works, and a later code command runs in a fresh sandbox.
  await run('document.querySelector(\'[data-wid="fill"] button\').click()');
  await expect
    .poll(() => run<string>('document.querySelector(\'[data-wid="name"] input\').value'))
    .toBe('filled after the crash');
  await run('document.querySelector(\'[data-wid="run"] button\').click()');
  await expect.poll(bodyText).toContain('code runs again, setup ran: undefined');
  expect(await frames()).toBe(1);
  await cdp.detach();
});
