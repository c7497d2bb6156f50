import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMember, seedProject, seedRole, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('shared key/value service on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let stranger: { id: string; token: string };
  let pid: string;
  const share = (path: string) => `/api/app/share/${pid}/${path}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    alice = await seedUser(t.app);
    bob = await seedUser(t.app);
    stranger = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id)).id;
    const role = await seedRole(t.app, pid, 'common');
    await seedMember(t.app, pid, alice.id, 'common', role);
    await seedMember(t.app, pid, bob.id, 'common', role);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sets, fetches in a batch, queries by key pattern, updates and removes', async () => {
    expect(
      (
        await call(t.app, 'POST', share('view/project/orders'), {
          token: owner.token,
          body: { value: { cols: ['a'] } },
        })
      ).error,
    ).toBe(0);
    expect(
      (
        await call(t.app, 'POST', share('filter/public/open'), {
          token: alice.token,
          body: { value: [1, 2] },
        })
      ).error,
    ).toBe(0);
    expect(
      (await call(t.app, 'POST', share('label/private/mine'), { token: alice.token, body: { value: 'red' } }))
        .error,
    ).toBe(0);
    const f = await call<Record<string, unknown>>(t.app, 'POST', share('fetch'), {
      token: bob.token,
      body: {
        view_project_orders: { model: 'view', type: 'project', key: 'orders' },
        filter_public_open: { model: 'filter', type: 'public', key: 'open' },
        label_private_mine: { model: 'label', type: 'private', key: 'mine' },
      },
    });
    // Bob sees the project and public items, not Alice's private one.
    expect(f.data).toEqual({
      view_project_orders: { cols: ['a'] },
      filter_public_open: [1, 2],
      label_private_mine: null,
    });
    const mine = await call<Record<string, unknown>>(t.app, 'POST', share('fetch'), {
      token: alice.token,
      body: { x: { model: 'label', type: 'private', key: 'mine' } },
    });
    expect(mine.data).toEqual({ x: 'red' });
    await call(t.app, 'POST', share('view/project/orders-2'), { token: owner.token, body: { value: 2 } });
    const q = await call<{ _key: string }[]>(t.app, 'POST', share('view/project/query'), {
      token: alice.token,
      body: { key: '^orders-' },
    });
    expect(q.data.map((x) => x._key)).toEqual(['orders-2']);
    expect(
      (
        await call(t.app, 'POST', share('view/project/nothing/update'), {
          token: owner.token,
          body: { value: 1 },
        })
      ).error,
    ).toBe(1700);
    expect(
      (
        await call(t.app, 'POST', share('view/project/orders/update'), {
          token: owner.token,
          body: { value: 3 },
        })
      ).error,
    ).toBe(0);
    expect(
      (await call(t.app, 'GET', share('view/project/orders/remove'), { token: owner.token })).error,
    ).toBe(0);
    expect(
      (await call(t.app, 'GET', share('view/project/orders/remove'), { token: owner.token })).error,
    ).toBe(1700);
  });

  it('enforces who may write what', async () => {
    expect(
      (await call(t.app, 'POST', share('view/project/x'), { token: alice.token, body: { value: 1 } })).error,
    ).toBe(1102);
    expect(
      (
        await call(t.app, 'POST', share('filter/public/open/update'), {
          token: bob.token,
          body: { value: 9 },
        })
      ).error,
    ).toBe(1102);
    expect((await call(t.app, 'GET', share('filter/public/open/remove'), { token: bob.token })).error).toBe(
      1102,
    );
    expect(
      (
        await call(t.app, 'POST', share('filter/public/open/update'), {
          token: owner.token,
          body: { value: 9 },
        })
      ).error,
    ).toBe(0);
    expect((await call(t.app, 'POST', share('view/public/x'), { body: { value: 1 } })).error).toBe(1100);
    expect(
      (await call(t.app, 'POST', share('view/public/x'), { token: stranger.token, body: { value: 1 } }))
        .error,
    ).toBe(1201);
    // Bob writing his own private item with Alice's key does not touch hers.
    await call(t.app, 'POST', share('label/private/mine'), { token: bob.token, body: { value: 'blue' } });
    const a = await call<Record<string, unknown>>(t.app, 'POST', share('fetch'), {
      token: alice.token,
      body: { x: { model: 'label', type: 'private', key: 'mine' } },
    });
    expect(a.data.x).toBe('red');
  });

  it('refuses bad input with coded errors and changes nothing', async () => {
    expect(
      (await call(t.app, 'POST', share('nosuchmodel/project/x'), { token: owner.token, body: { value: 1 } }))
        .error,
    ).toBe(1000);
    expect(
      (await call(t.app, 'POST', share('view/weird/x'), { token: owner.token, body: { value: 1 } })).error,
    ).toBe(1000);
    expect(
      (
        await call(t.app, 'POST', share('view/project/query'), {
          token: owner.token,
          body: { key: '(a+)+$' },
        })
      ).error,
    ).toBe(1112);
    expect(
      (await call(t.app, 'POST', share('view/project/query'), { token: owner.token, body: { key: '[' } }))
        .error,
    ).toBe(1112);
    expect(
      (
        await call(t.app, 'POST', share('view/project/big'), {
          token: owner.token,
          body: { value: 'x'.repeat(300_000) },
        })
      ).error,
    ).toBe(1701);
    expect(
      (await call(t.app, 'POST', share('fetch'), { token: owner.token, body: { a: { model: 'view' } } }))
        .error,
    ).toBe(1000);
    const n = await t.app.database.db
      .selectFrom('share_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    // orders-2, filter open, and the two private labels (Alice and Bob).
    expect(Number(n.n)).toBe(4);
  });

  it('auto-numbering: next is atomic, builders reset and restore', async () => {
    const next = () =>
      call<{ _value: number }>(t.app, 'POST', share('increment/next'), {
        token: alice.token,
        body: { key: 'order' },
      });
    const values = await Promise.all([next(), next(), next(), next()]);
    expect(values.map((v) => v.data._value).sort()).toEqual([1, 2, 3, 4]);
    expect(
      (await call(t.app, 'POST', share('increment/reset'), { token: alice.token, body: { key: 'order' } }))
        .error,
    ).toBe(1102);
    expect(
      (await call(t.app, 'POST', share('increment/reset'), { token: owner.token, body: { key: 'order' } }))
        .error,
    ).toBe(0);
    expect((await next()).data._value).toBe(1);
    expect(
      (
        await call(t.app, 'POST', share('increment/resetFromCache'), {
          token: owner.token,
          body: { map: { order: 41 } },
        })
      ).error,
    ).toBe(0);
    expect((await next()).data._value).toBe(42);
  });
});
