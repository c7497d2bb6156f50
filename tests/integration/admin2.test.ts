/**
 * The administration's shared settings on both databases (#22): option sets used by option fields,
 * auto-numbering on create in the record's transaction (20 parallel creates → 20 consecutive
 * numbers), per-table settings and translation maps checked on save, machine translation through
 * the provider interface (none configured → 2080; the test provider), and /system/deploy's facts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('administration settings on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let member: string;
  let project: string;
  const adminBase = () => `/api/admin/project/${project}`;
  const share = (path: string) => `/api/app/share/${project}/${path}`;
  const data = (path: string) => `/api/admin/data/${project}/${path}`;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      translate: { provider: 'test', url: undefined, key: undefined, timeoutMs: 1000 },
    });
    ({ token: owner } = await registerUser(t.app, {
      user: 'adm2owner',
      pwd: 'abc12345',
      phone: '13600000181',
    }));
    ({ token: member } = await registerUser(t.app, {
      user: 'adm2other',
      pwd: 'abc12345',
      phone: '13600000182',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'A2' },
      })
    ).data._id;
    expect(
      (
        await call(t.app, 'POST', `${adminBase()}/entity/create`, {
          token: owner,
          body: { name: 'Order', code: 'ord' },
        })
      ).error,
    ).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an option field naming an option set takes the set’s values, as the set is at write time', async () => {
    // The set must exist before a field names it.
    const early = await call(t.app, 'POST', `${adminBase()}/ord/field/create`, {
      token: owner,
      body: { name: 'Colour', type: 'option', field: 'colour', option: { info: { selection: 'colours' } } },
    });
    expect(early.error).toBe(2083);
    for (const value of [
      { name: '', list: ['a'] },
      { name: 'C', list: [] },
      { name: 'C', list: ['a', 'a'] },
      [1],
      'x',
    ])
      expect(
        (await call(t.app, 'POST', share('selection/project/colours'), { token: owner, body: { value } }))
          .error,
      ).toBe(2084);
    expect(
      (
        await call(t.app, 'POST', share('selection/project/9bad'), {
          token: owner,
          body: { value: { name: 'C', list: ['a'] } },
        })
      ).error,
    ).toBe(2084);
    const set = await call(t.app, 'POST', share('selection/project/colours'), {
      token: owner,
      body: { value: { name: 'Colours', list: ['red', 'green'] } },
    });
    expect(set.error, set.raw).toBe(0);
    const f = await call(t.app, 'POST', `${adminBase()}/ord/field/create`, {
      token: owner,
      body: { name: 'Colour', type: 'option', field: 'colour', option: { info: { selection: 'colours' } } },
    });
    expect(f.error, f.raw).toBe(0);
    const ok = await call<{ _id: string; colour: string }>(t.app, 'POST', data('ord/save'), {
      token: owner,
      body: { colour: 'red' },
    });
    expect(ok.error, ok.raw).toBe(0);
    expect(ok.data.colour).toBe('red');
    expect(
      (await call(t.app, 'POST', data('ord/save'), { token: owner, body: { colour: 'blue' } })).error,
    ).toBe(1960);
    // The set grows: the new value is accepted at once, no field change needed.
    await call(t.app, 'POST', share('selection/project/colours'), {
      token: owner,
      body: { value: { name: 'Colours', list: ['red', 'green', 'blue'] } },
    });
    const blue = await call(t.app, 'POST', data('ord/save'), { token: owner, body: { colour: 'blue' } });
    expect(blue.error, blue.raw).toBe(0);
    const upd = await call(t.app, 'POST', data(`ord/${ok.data._id}/update`), {
      token: owner,
      body: { colour: 'purple' },
    });
    expect(upd.error).toBe(1960);
    // Only builders keep option sets.
    expect(
      (
        await call(t.app, 'POST', share('selection/project/x1'), {
          token: member,
          body: { value: { name: 'X', list: ['a'] } },
        })
      ).error,
    ).not.toBe(0);
  });

  it('auto-numbering: a text field numbered on create; 20 parallel creates get 20 consecutive numbers', async () => {
    const bad = [
      { name: 'No', prefix: 'NO-', date: 'yy', digits: 4, reset: 'never' },
      { name: 'No', prefix: 'NO-', date: '', digits: 40, reset: 'never' },
      { name: 'No', prefix: 'x'.repeat(21), date: '', digits: 4, reset: 'never' },
      { name: 'No', prefix: '', date: '', digits: 4, reset: 'hourly' },
    ];
    for (const value of bad)
      expect(
        (await call(t.app, 'POST', share('config/project/increment.no'), { token: owner, body: { value } }))
          .error,
      ).toBe(2086);
    // A field naming a missing rule, or a rule on a number field, is refused.
    expect(
      (
        await call(t.app, 'POST', `${adminBase()}/ord/field/create`, {
          token: owner,
          body: { name: 'No', type: 'string', field: 'no', option: { increment: 'no' } },
        })
      ).error,
    ).toBe(2085);
    const rule = await call(t.app, 'POST', share('config/project/increment.no'), {
      token: owner,
      body: { value: { name: 'Order no.', prefix: '', date: '', digits: 1, reset: 'never' } },
    });
    expect(rule.error, rule.raw).toBe(0);
    expect(
      (
        await call(t.app, 'POST', `${adminBase()}/ord/field/create`, {
          token: owner,
          body: { name: 'N', type: 'number', field: 'nn', option: { increment: 'no' } },
        })
      ).error,
    ).toBe(2087);
    const f = await call(t.app, 'POST', `${adminBase()}/ord/field/create`, {
      token: owner,
      body: { name: 'No', type: 'string', field: 'no', option: { increment: 'no' } },
    });
    expect(f.error, f.raw).toBe(0);
    const first = await call<{ _id: string; no: string }>(t.app, 'POST', data('ord/save'), {
      token: owner,
      body: { no: 'typed' },
    });
    expect(first.error, first.raw).toBe(0);
    expect(first.data.no).toBe('1');
    // A failing create (bad option value) gives its number back: the next one is still 2.
    expect(
      (await call(t.app, 'POST', data('ord/save'), { token: owner, body: { colour: 'nope' } })).error,
    ).toBe(1960);
    const second = await call<{ no: string }>(t.app, 'POST', data('ord/save'), { token: owner, body: {} });
    expect(second.data.no).toBe('2');
    // Updates keep the number.
    const upd = await call(t.app, 'POST', data(`ord/${first.data._id}/update`), {
      token: owner,
      body: { no: '99' },
    });
    expect(upd.error, upd.raw).toBe(0);
    const again = await call<{ data: { _id: string; no: string }[] }>(t.app, 'POST', data('ord/query'), {
      token: owner,
      body: {},
    });
    expect(again.data.data.find((r) => r._id === first.data._id)?.no).toBe('1');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call<{ no: string }>(t.app, 'POST', data('ord/save'), { token: owner, body: {} }),
      ),
    );
    for (const a of answers) expect(a.error, a.raw).toBe(0);
    const numbers = answers.map((a) => Number(a.data.no)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 3));
  });

  it('a rule with prefix, date part, padding and a yearly counter', async () => {
    await call(t.app, 'POST', share('config/project/increment.inv'), {
      token: owner,
      body: { value: { name: 'Invoice', prefix: 'INV-', date: 'yyyy', digits: 4, reset: 'year' } },
    });
    await call(t.app, 'POST', `${adminBase()}/entity/create`, {
      token: owner,
      body: { name: 'Invoice', code: 'inv' },
    });
    expect(
      (
        await call(t.app, 'POST', `${adminBase()}/inv/field/create`, {
          token: owner,
          body: { name: 'No', type: 'string', field: 'no', option: { increment: 'inv' } },
        })
      ).error,
    ).toBe(0);
    const year = new Date(Date.now() + 8 * 3600_000).getUTCFullYear();
    const a = await call<{ no: string }>(t.app, 'POST', data('inv/save'), { token: owner, body: {} });
    const b = await call<{ no: string }>(t.app, 'POST', data('inv/save'), { token: owner, body: {} });
    expect([a.data.no, b.data.no]).toEqual([`INV-${year}0001`, `INV-${year}0002`]);
  });

  it('translation maps and table settings are checked when kept', async () => {
    for (const [key, value] of [
      ['languages', { EN: 'English' }],
      ['languages', { en: '' }],
      ['text.en', { a: 5 }],
      ['text.EN', { a: 'x' }],
      ['other', { a: 'x' }],
      ['text.en', { a: 'x'.repeat(2001) }],
    ] as const)
      expect(
        (await call(t.app, 'POST', share(`i18n/project/${key}`), { token: owner, body: { value } })).error,
        key,
      ).toBe(2088);
    expect(
      (
        await call(t.app, 'POST', share('i18n/project/languages'), {
          token: owner,
          body: { value: { en: 'English' } },
        })
      ).error,
    ).toBe(0);
    expect(
      (
        await call(t.app, 'POST', share('i18n/project/text.en'), {
          token: owner,
          body: { value: { [project]: 'Orders' } },
        })
      ).error,
    ).toBe(0);
    for (const value of [
      { sort: { field: 'x', order: 'up' } },
      { pageSize: 7 },
      { nope: 1 },
      { labels: [{ field: 'a', opt: 'eq', color: 'pink' }] },
    ])
      expect(
        (await call(t.app, 'POST', share('config/project/table.abc'), { token: owner, body: { value } }))
          .error,
      ).toBe(2089);
    expect(
      (
        await call(t.app, 'POST', share('config/project/table.abc'), {
          token: owner,
          body: { value: { sort: { field: 'no', order: 'desc' }, pageSize: 50 } },
        })
      ).error,
    ).toBe(0);
  });

  it('translate goes through the provider; bad input is coded; anonymous callers are refused', async () => {
    const ok = await call<Record<string, string>>(t.app, 'POST', '/api/common/utils/translate', {
      token: owner,
      body: { map: { a: '订单', b: '客户' }, to: 'en', from: 'zh' },
    });
    expect(ok.error, ok.raw).toBe(0);
    expect(ok.data).toEqual({ a: '[en] 订单', b: '[en] 客户' });
    expect(
      (await call(t.app, 'POST', '/api/common/utils/translate', { body: { map: { a: 'x' }, to: 'en' } }))
        .error,
    ).toBe(1100);
    expect(
      (
        await call(t.app, 'POST', '/api/common/utils/translate', {
          token: owner,
          body: { map: { a: 'x' }, to: 'EN!' },
        })
      ).error,
    ).toBe(2082);
    const many = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`k${i}`, 'x']));
    expect(
      (
        await call(t.app, 'POST', '/api/common/utils/translate', {
          token: owner,
          body: { map: many, to: 'en' },
        })
      ).error,
    ).not.toBe(0);
    const long = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'x'.repeat(1999)]));
    expect(
      (
        await call(t.app, 'POST', '/api/common/utils/translate', {
          token: owner,
          body: { map: long, to: 'en' },
        })
      ).error,
    ).toBe(1002);
    expect(
      (
        await call(t.app, 'POST', '/api/common/utils/translate', {
          token: owner,
          body: { map: 'x', to: 'en' },
        })
      ).error,
    ).not.toBe(0);
  });

  it('deploy facts for builders only, without secrets', async () => {
    const d = await call<{
      database: { kind: string; version: string };
      redis: { configured: boolean };
      version: string;
      process: { pid: number };
      env: { name: string; value: string }[];
    }>(t.app, 'GET', `${adminBase()}/deploy`, { token: owner });
    expect(d.error, d.raw).toBe(0);
    expect(d.data.database.kind).toBe(dialect);
    expect(d.data.database.version).not.toBe('');
    expect(d.data.process.pid).toBe(process.pid);
    expect(d.data.env.map((e) => e.name)).toContain('DATABASE_URL');
    if (dialect === 'postgres') expect(d.raw).not.toMatch(/postgres:\/\/[^:@/]+:[^*@][^@]*@/);
    expect((await call(t.app, 'GET', `${adminBase()}/deploy`, { token: member })).error).not.toBe(0);
    expect((await call(t.app, 'GET', `${adminBase()}/deploy`)).error).toBe(1100);
  });
});

describe('translate without a configured provider', () => {
  it('answers 2080', async () => {
    const t = await createTestApp('sqlite');
    try {
      const { token } = await registerUser(t.app, {
        user: 'adm2solo',
        pwd: 'abc12345',
        phone: '13600000183',
      });
      const r = await call(t.app, 'POST', '/api/common/utils/translate', {
        token,
        body: { map: { a: 'x' }, to: 'en' },
      });
      expect(r.error).toBe(2080);
    } finally {
      await t.close();
    }
  });
});
