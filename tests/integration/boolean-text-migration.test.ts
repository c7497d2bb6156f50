/**
 * Migration 018 on both databases: text fields every filled value of which is "true" or "false"
 * (yes/no fields made before the boolean type) become boolean fields with their values kept; text
 * fields holding anything else, or nothing yet, keep their type and values. Running it again turns
 * nothing more.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearMetaCache } from '../../src/server/data/meta.ts';
import { turnBooleanText } from '../../src/server/db/migrations/018-boolean-text.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();
type Row = Record<string, unknown>;

describe.each(dialects)('boolean-as-text migration on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let project: string;
  const data = (path: string) => `/api/admin/data/${project}/${path}`;
  const adminProject = () => `/api/admin/project/${project}`;

  async function rows(): Promise<Row[]> {
    const r = await call<{ data: Row[] }>(t.app, 'POST', data('chore/query'), {
      token: owner,
      body: { all: true, sort: [{ field: 'title', order: 'asc' }] },
    });
    expect(r.error, r.raw).toBe(0);
    return r.data.data;
  }
  async function types(): Promise<Record<string, string>> {
    const r = await call<{ field: { _field: string; _type: string }[] }>(t.app, 'POST', data('chore/meta'), {
      token: owner,
      body: {},
    });
    expect(r.error, r.raw).toBe(0);
    return Object.fromEntries(r.data.field.map((f) => [f._field, f._type]));
  }
  const migrate = async () => {
    const { db, dialect: d } = t.app.database;
    const n = await turnBooleanText(db as unknown as Kysely<unknown>, d);
    clearMetaCache(db, project);
    return n;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'booltext1',
      pwd: 'abc12345',
      phone: '13600000191',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'B' },
      })
    ).data._id;
    await call(t.app, 'POST', `${adminProject()}/entity/create`, {
      token: owner,
      body: { name: 'Chore', code: 'chore' },
    });
    for (const field of ['title', 'done', 'mixed', 'shouting', 'untouched'])
      expect(
        (
          await call(t.app, 'POST', `${adminProject()}/chore/field/create`, {
            token: owner,
            body: { name: field, type: 'string', field },
          })
        ).error,
      ).toBe(0);
    // The switches of old stored the text true or false; "mixed" also holds other text, "shouting"
    // holds TRUE (not what a switch stored), "untouched" nothing at all.
    for (const [title, done, mixed, shouting] of [
      ['a', 'true', 'true', 'TRUE'],
      ['b', 'false', 'maybe', 'false'],
      ['c', '', 'false', ''],
      ['d', null, null, null],
    ] as const) {
      const r = await call(t.app, 'POST', data('chore/save'), {
        token: owner,
        body: { title, done, mixed, shouting },
      });
      expect(r.error, r.raw).toBe(0);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('turns yes/no text fields into boolean fields and keeps every other text field as it was', async () => {
    expect(await migrate()).toBe(1);
    expect(await types()).toMatchObject({
      title: 'string',
      done: 'boolean',
      mixed: 'string',
      shouting: 'string',
      untouched: 'string',
    });
    const got = (await rows()).map((r) => [r.title, r.done, r.mixed, r.shouting]);
    expect(got).toEqual([
      ['a', true, 'true', 'TRUE'],
      ['b', false, 'maybe', 'false'],
      ['c', null, 'false', null],
      ['d', null, null, null],
    ]);
  });

  it('the turned field is queried, saved and checked as a boolean', async () => {
    const count = async (query: unknown) => {
      const r = await call<{ count: number }>(t.app, 'POST', data('chore/query'), {
        token: owner,
        body: { query, count: true },
      });
      return r.error === 0 ? r.data.count : `error ${r.error}: ${r.raw}`;
    };
    expect(await count({ $and: [{ field: 'done', type: 'boolean', opt: 'eq', value: true }] })).toBe(1);
    expect(await count({ $and: [{ field: 'done', type: 'boolean', opt: 'eq', value: false }] })).toBe(1);
    expect(await count({ $and: [{ field: 'done', type: 'boolean', opt: 'isnull' }] })).toBe(2);
    const saved = await call<Row>(t.app, 'POST', data('chore/save'), {
      token: owner,
      body: { title: 'e', done: true },
    });
    expect(saved.error, saved.raw).toBe(0);
    expect(saved.data.done).toBe(true);
    const refused = await call(t.app, 'POST', data('chore/save'), {
      token: owner,
      body: { title: 'f', done: 'maybe' },
    });
    expect(refused.error).toBe(1964);
    expect((await rows()).map((r) => r.title)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('running again turns nothing more', async () => {
    expect(await migrate()).toBe(0);
    expect((await types()).done).toBe('boolean');
    expect((await rows()).find((r) => r.title === 'a')?.done).toBe(true);
  });
});
