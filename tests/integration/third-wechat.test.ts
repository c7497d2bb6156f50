/**
 * WeChat and WeCom beyond the main website sign-in, against local fakes of both providers:
 * JS-SDK signatures (checked by the fakes' verifiers, tickets fetched once), a custom build's
 * sign-in through its project config, WeCom sign-in (desktop QR and inside WeCom), binding an
 * existing account from the user centre with a single-use bind code, unbinding, and the bad input:
 * states from another browser, reused or foreign bind codes, identities owned by someone else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCustom } from '../../src/server/project/service.ts';
import { E } from '../../src/shared/errors.ts';
import { weixinConfigOf, wxworkConfigOf } from '../fakes/configs.ts';
import { type FakeWeixin, startFakeWeixin } from '../fakes/weixin-server.ts';
import { type FakeWxwork, startFakeWxwork } from '../fakes/wxwork-server.ts';
import { seedProject, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { Browser, landing } from '../helpers/oauth-browser.ts';

const dialects = await testDialects();
const base = 'http://app.test';

describe.each(dialects)('WeChat and WeCom on %s', (dialect) => {
  let t: TestApp;
  let wx: FakeWeixin;
  let ww: FakeWxwork;
  const customAppId = 'wx9c8b7a6f5e4d3c2b';
  let customSecret = '';
  let project = '';

  beforeAll(async () => {
    wx = await startFakeWeixin();
    ww = await startFakeWxwork();
    customSecret = wx.addApp(customAppId);
    t = await createTestApp(dialect, {
      publicUrl: base,
      weixin: weixinConfigOf(wx, { [customAppId]: customSecret }),
      wxwork: wxworkConfigOf(ww),
    });
    const owner2 = await seedUser(t.app);
    project = (await seedProject(t.app, owner2.id)).id;
  });
  afterAll(async () => {
    await t?.close();
    await wx?.close();
    await ww?.close();
  });

  const count = async (table: 'users' | 'third_identities') =>
    Number(
      (
        await t.app.database.db
          .selectFrom(table)
          .select((e) => e.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('signs wx.config over the cached jsapi_ticket; the fake verifies it', async () => {
    const page = 'https://app.test/home?x=1#/frag';
    const a = await call<{ appId: string; timestamp: number; nonceStr: string; signature: string }>(
      t.app,
      'GET',
      `/api/third/weixin/main/wxconfig?url=${encodeURIComponent(page)}`,
    );
    expect(a.error).toBe(0);
    expect(a.data.appId).toBe(wx.appId);
    expect(wx.verify(a.data, page)).toBe(true);
    expect(wx.verify(a.data, 'https://app.test/other')).toBe(false);
    const fetched = [wx.tokenFetches, wx.ticketFetches];
    const b = await call<{ signature: string }>(
      t.app,
      'GET',
      `/api/third/weixin/main/wxconfig?url=${encodeURIComponent(page)}`,
    );
    expect(wx.verify(b.data as never, page)).toBe(true);
    expect([wx.tokenFetches, wx.ticketFetches]).toEqual(fetched);
    // The page comes from the Referer when not given.
    const c = await call<{ signature: string }>(t.app, 'GET', '/api/third/weixin/main/wxconfig', {
      headers: { referer: page },
    });
    expect(wx.verify(c.data as never, page)).toBe(true);
    for (const url of ['javascript:alert(1)', 'not a url', `https://x/${'a'.repeat(1100)}`]) {
      const r = await call(t.app, 'GET', `/api/third/weixin/main/wxconfig?url=${encodeURIComponent(url)}`);
      expect([400].includes(r.status) && [E.THIRD_URL_INVALID.code, 1000].includes(r.error)).toBe(true);
    }
    expect((await call(t.app, 'GET', '/api/third/weixin/main/wxconfig')).error).toBe(
      E.THIRD_URL_INVALID.code,
    );
  });

  it("signs a custom build's wx.config with its own app; refuses unknown or unconfigured projects", async () => {
    const page = 'https://custom.test/app';
    const url = `/api/third/weixin/third/${project}/wxconfig?url=${encodeURIComponent(page)}`;
    expect((await call(t.app, 'GET', url)).error).toBe(E.THIRD_NOT_CONFIGURED.code);
    await setCustom(t.app.database.db, project, { config: { weixinAppid: customAppId } });
    const a = await call<{ appId: string; timestamp: number; nonceStr: string; signature: string }>(
      t.app,
      'GET',
      url,
    );
    expect(a.data.appId).toBe(customAppId);
    expect(wx.verify(a.data, page)).toBe(true);
    const none = await call(t.app, 'GET', `/api/third/weixin/third/${'0'.repeat(24)}/wxconfig?url=${page}`);
    expect(none.error).toBe(E.PROJECT_NOT_FOUND.code);
    await setCustom(t.app.database.db, project, { config: { weixinAppid: 'wx_not_ours' } });
    expect((await call(t.app, 'GET', url)).error).toBe(E.THIRD_NOT_CONFIGURED.code);
  });

  it("signs in through a custom build's app only when its project turns weixinLogin on", async () => {
    const start = `/api/third/weixin/third/login?project=${project}&redirect=/app`;
    await setCustom(t.app.database.db, project, { config: { weixinAppid: customAppId, weixinLogin: false } });
    const off = await new Browser(() => t).get(start);
    expect([off.statusCode, JSON.parse(off.body).error]).toEqual([403, E.THIRD_LOGIN_DISABLED.code]);
    await setCustom(t.app.database.db, project, {
      config: { weixinAppid: customAppId, weixinLogin: true, weixinAppType: 'mp' },
    });
    wx.person = 'o6_custom_person_0001';
    const b = new Browser(() => t, 'Mozilla/5.0 MicroMessenger/8.0');
    const { start: s, end } = await b.trip(start);
    const to = new URL(String(s.headers.location));
    expect(to.pathname).toBe('/connect/oauth2/authorize');
    expect(to.searchParams.get('appid')).toBe(customAppId);
    expect(to.searchParams.get('scope')).toBe('snsapi_userinfo');
    expect(end.statusCode).toBe(302);
    const code = landing(end).searchParams.get('wx_token')!;
    const r = await call<{ token: string }>(t.app, 'POST', '/api/common/user/oauth/id', {
      body: { token: code },
    });
    const me = await call<{ account: string }>(t.app, 'GET', '/api/common/user/userInfo', {
      token: r.data.token,
    });
    expect(me.data.account).toMatch(/^weixin_/);
  });

  it('signs a WeCom member in (QR on desktop, authorise page inside WeCom) as a wxwork_ user', async () => {
    const desk = new Browser(() => t);
    const { start, end } = await desk.trip(`/api/third/wxwork/login?corpid=${ww.corpId}&redirect=/home`);
    expect(new URL(String(start.headers.location)).pathname).toBe('/wwlogin/sso/login');
    const code = landing(end).searchParams.get('wx_token')!;
    const r = await call<{ token: string }>(t.app, 'POST', '/api/common/user/oauth/id', {
      body: { token: code },
    });
    const me = await call<{ _id: string; account: string }>(t.app, 'GET', '/api/common/user/userInfo', {
      token: r.data.token,
    });
    expect(me.data.account).toMatch(/^wxwork_ZhangSan_[0-9a-f]{6}$/);
    const app = new Browser(() => t, 'Mozilla/5.0 wxwork/4.1 MicroMessenger/7.0');
    const again = await app.trip('/api/third/wxwork/login?redirect=/home');
    expect(new URL(String(again.start.headers.location)).pathname).toBe('/connect/oauth2/authorize');
    const code2 = landing(again.end).searchParams.get('wx_token')!;
    const r2 = await call<{ token: string }>(t.app, 'POST', '/api/common/user/oauth/id', {
      body: { token: code2 },
    });
    const me2 = await call<{ _id: string }>(t.app, 'GET', '/api/common/user/userInfo', {
      token: r2.data.token,
    });
    expect(me2.data._id).toBe(me.data._id);
    // A non-member, an unknown corp: coded, nobody made.
    const users = await count('users');
    ww.member = '';
    const outsider = await new Browser(() => t).trip('/api/third/wxwork/login?redirect=/home');
    expect(JSON.parse(outsider.end.body).error).toBe(E.WXWORK_NOT_MEMBER.code);
    ww.member = 'ZhangSan';
    const unknown = await new Browser(() => t).get('/api/third/wxwork/login?corpid=wwnope');
    expect(JSON.parse(unknown.body).error).toBe(E.WXWORK_CORP_UNKNOWN.code);
    expect(await count('users')).toBe(users);
  });

  it('signs wx.config and wx.agentConfig in WeCom and answers the entry project', async () => {
    const page = 'https://app.test/?mode=wxwork';
    const c = await call<{ appId: string; timestamp: number; nonceStr: string; signature: string }>(
      t.app,
      'POST',
      `/api/third/wxwork/main/jsconfig/${ww.corpId}`,
      { body: { url: page } },
    );
    expect(c.data.appId).toBe(ww.corpId);
    expect(ww.verify(c.data, page, 'corp')).toBe(true);
    const a = await call<{
      corpid: string;
      agentid: string;
      timestamp: number;
      nonceStr: string;
      signature: string;
    }>(t.app, 'POST', `/api/third/wxwork/main/jsagentconfig/${ww.corpId}`, { body: { url: page } });
    expect([a.data.corpid, a.data.agentid]).toEqual([ww.corpId, ww.agentId]);
    expect(ww.verify(a.data, page, 'agent')).toBe(true);
    expect(ww.verify(a.data, page, 'corp')).toBe(false);
    expect(ww.tokenFetches).toBe(1);
    const p = await call<{ corpid: string; loginUrl: string; project: unknown }>(
      t.app,
      'GET',
      `/api/third/wxwork/main/project/${ww.corpId}`,
    );
    expect(p.data).toMatchObject({ corpid: ww.corpId, project: null });
    expect(p.data.loginUrl).toBe(`/api/third/wxwork/login?corpid=${ww.corpId}`);
    for (const [m, u] of [
      ['POST', '/api/third/wxwork/main/jsconfig/wwnope'],
      ['POST', '/api/third/wxwork/main/jsagentconfig/wwnope'],
      ['GET', '/api/third/wxwork/main/project/wwnope'],
    ] as const) {
      const r = await call(t.app, m, u, m === 'POST' ? { body: { url: page } } : {});
      expect(r.error).toBe(E.WXWORK_CORP_UNKNOWN.code);
    }
  });

  it('binds WeChat to an existing account with a single-use bind code, then unbinds', async () => {
    const user = await seedUser(t.app);
    const other = await seedUser(t.app);
    const started = await call<{ token: string; url: string; expiresAt: number }>(
      t.app,
      'POST',
      '/api/third/weixin/main/bind',
      { token: user.token, body: { redirect: '/user' } },
    );
    expect(started.error).toBe(0);
    const bindUrl = new URL(started.data.url);
    expect(bindUrl.origin + bindUrl.pathname).toBe(`${base}/api/third/weixin/main/bind`);
    const status = (token: string, as = user.token) =>
      call<{ status: string }>(t.app, 'GET', `/api/third/weixin/main/bind/token/${token}`, { token: as });
    expect((await status(started.data.token)).data.status).toBe('waiting');
    // Nobody else may watch the code.
    expect((await status(started.data.token, other.token)).error).toBe(E.THIRD_BIND_TOKEN_INVALID.code);
    wx.person = 'o6_binding_person_0001';
    const phone = new Browser(() => t, 'Mozilla/5.0 MicroMessenger/8.0');
    const { end } = await phone.trip(bindUrl.pathname + bindUrl.search);
    expect(end.statusCode).toBe(302);
    expect(landing(end).pathname).toBe('/user');
    expect(landing(end).searchParams.get('bound')).toBe('weixin');
    expect((await status(started.data.token)).data.status).toBe('bound');
    const binds = await call<{ weixin: boolean }>(t.app, 'GET', '/api/third/binds', { token: user.token });
    expect(binds.data.weixin).toBe(true);
    // The bind code works once.
    const reused = await new Browser(() => t).get(bindUrl.pathname + bindUrl.search);
    expect(JSON.parse(reused.body).error).toBe(E.THIRD_BIND_TOKEN_INVALID.code);
    // Already bound: unbind first.
    expect(
      (await call(t.app, 'POST', '/api/third/weixin/main/bind', { token: user.token, body: {} })).error,
    ).toBe(E.THIRD_ALREADY_BOUND.code);
    // Signing in with that WeChat now signs in as this user.
    const signIn = await phone.trip('/api/third/weixin/main/login?redirect=/home');
    const code = landing(signIn.end).searchParams.get('wx_token')!;
    const s = await call<{ token: string }>(t.app, 'POST', '/api/common/user/oauth/id', {
      body: { token: code },
    });
    const me = await call<{ _id: string }>(t.app, 'GET', '/api/common/user/userInfo', {
      token: s.data.token,
    });
    expect(me.data._id).toBe(user.id);
    // The same WeChat cannot be bound to another account; nothing changes.
    const idents = await count('third_identities');
    const theirs = await call<{ url: string }>(t.app, 'POST', '/api/third/weixin/main/bind', {
      token: other.token,
      body: {},
    });
    const u = new URL(theirs.data.url);
    const taken = await new Browser(() => t).trip(u.pathname + u.search);
    expect(JSON.parse(taken.end.body).error).toBe(E.THIRD_IDENTITY_TAKEN.code);
    expect(await count('third_identities')).toBe(idents);
    // Unbind, then again: nothing to unbind.
    expect((await call(t.app, 'POST', '/api/third/weixin/main/unbind', { token: user.token })).error).toBe(0);
    expect((await call(t.app, 'POST', '/api/third/weixin/main/unbind', { token: user.token })).error).toBe(
      E.THIRD_NOT_BOUND.code,
    );
    expect(await count('third_identities')).toBe(idents - 1);
  });

  it('refuses a state taken back in another browser, expired or unknown bind codes, and strangers', async () => {
    const users = await count('users');
    const mine = new Browser(() => t);
    const start = await mine.get('/api/third/weixin/main/login?redirect=/home');
    const provider = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(String(provider.headers.get('location')));
    // Someone else's browser (no cookie, or another one) cannot use this state …
    const thief = new Browser(() => t);
    await thief.get('/api/third/weixin/main/login');
    const stolen = await thief.get(back.pathname + back.search);
    expect(JSON.parse(stolen.body).error).toBe(E.THIRD_STATE_FOREIGN.code);
    // … and the state is gone even for its own browser (single use).
    const late = await mine.get(back.pathname + back.search);
    expect(JSON.parse(late.body).error).toBe(E.THIRD_STATE_INVALID.code);
    // Bind codes: unknown, expired.
    const user = await seedUser(t.app);
    const b = await call<{ token: string; url: string }>(t.app, 'POST', '/api/third/weixin/main/bind', {
      token: user.token,
      body: {},
    });
    await t.app.database.db
      .updateTable('third_states')
      .set({ expires_at: Date.now() - 1 })
      .where('purpose', '=', 'bind')
      .execute();
    const u = new URL(b.data.url);
    expect(JSON.parse((await new Browser(() => t).get(u.pathname + u.search)).body).error).toBe(
      E.THIRD_BIND_TOKEN_INVALID.code,
    );
    expect(
      JSON.parse((await new Browser(() => t).get('/api/third/weixin/main/bind?token=nope')).body).error,
    ).toBe(E.THIRD_BIND_TOKEN_INVALID.code);
    // Signed-in calls need a user.
    for (const [m, url] of [
      ['POST', '/api/third/weixin/main/bind'],
      ['POST', '/api/third/wxwork/main/bind'],
      ['POST', '/api/third/weixin/main/unbind'],
      ['GET', `/api/third/weixin/main/bind/token/${b.data.token}`],
      ['GET', '/api/third/binds'],
    ] as const) {
      const r = await call(t.app, m, url, m === 'POST' ? { body: {} } : {});
      expect(r.error).toBe(E.AUTH_REQUIRED.code);
    }
    expect(await count('users')).toBe(users + 1);
  });
});
