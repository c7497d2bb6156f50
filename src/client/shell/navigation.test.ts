import { describe, expect, it } from 'vitest';
import {
  applyQueryOptions,
  decide,
  homePath,
  isAdminRoute,
  type KeyValueStore,
  loginPath,
  menuPath,
  NAV_KEYS,
  pagePath,
  parseQueryOptions,
  rootFlags,
  screenMode,
  skipsPrefix,
  splitCustom,
  stripOptions,
  withPrefix,
  wxworkSwitch,
} from './navigation.ts';

const P = 'a'.repeat(24);
const Q = '0123456789abcdef01234567';

function memStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe('rule 1: /dev and /app skip the prefix', () => {
  it('detects them', () => {
    expect(skipsPrefix('/dev/queue')).toBe(true);
    expect(skipsPrefix('/app/x/y')).toBe(true);
    expect(skipsPrefix('/dev')).toBe(true);
    expect(skipsPrefix('/developer')).toBe(false);
    expect(skipsPrefix('/user')).toBe(false);
  });
  it('never prefixes them', () => {
    expect(withPrefix('/dev/preview', P)).toBe('/dev/preview');
    expect(withPrefix(`/app/${Q}/p1`, P)).toBe(`/app/${Q}/p1`);
  });
});

describe('rule 2: the custom prefix', () => {
  it('prefixes other paths when a custom project is active', () => {
    expect(withPrefix('/user', P)).toBe(`/${P}/user`);
    expect(withPrefix('/', P)).toBe(`/${P}`);
    expect(withPrefix('user', null)).toBe('/user');
    expect(withPrefix(`/${P}/user`, P)).toBe(`/${P}/user`);
  });
  it('detects a 24-hex first segment, and only that', () => {
    expect(splitCustom(`/${P}/user`)).toEqual({ custom: P, rest: '/user' });
    expect(splitCustom(`/${P}`)).toEqual({ custom: P, rest: '/' });
    expect(splitCustom(`/${P.toUpperCase()}/x`).custom).toBe(P);
    expect(splitCustom('/user')).toEqual({ custom: null, rest: '/user' });
    expect(splitCustom(`/${'g'.repeat(24)}/x`).custom).toBeNull();
    expect(splitCustom(`/${'a'.repeat(23)}/x`).custom).toBeNull();
  });
  it('a detected prefix activates the custom project', () => {
    const d = decide({ path: `/${P}/user`, token: 't', custom: null, limited: false });
    expect(d).toMatchObject({ kind: 'allow', custom: P, loadUser: true });
  });
  it('the active one stays when the path has none', () => {
    const d = decide({ path: '/user', token: 't', custom: P, limited: false });
    expect(d).toMatchObject({ kind: 'allow', custom: P });
  });
});

describe('rule 3: /reset', () => {
  it('resets and goes home', () => {
    expect(decide({ path: '/reset', token: 't', custom: null, limited: false })).toEqual({
      kind: 'reset',
      to: '/',
    });
    expect(decide({ path: '/reset', token: null, custom: null, limited: false }).kind).toBe('reset');
  });
});

describe('rule 4: …/logout', () => {
  it('logs out to /login', () => {
    expect(decide({ path: '/anything/logout', token: 't', custom: null, limited: false })).toEqual({
      kind: 'logout',
      to: '/login',
    });
  });
  it('logs out to /{project}/login under a prefix', () => {
    expect(decide({ path: `/${P}/logout`, token: 't', custom: null, limited: false })).toEqual({
      kind: 'logout',
      to: `/${P}/login`,
    });
    expect(loginPath(P)).toBe(`/${P}/login`);
  });
});

describe('rule 5: /app initialises the app', () => {
  it('names the project to init', () => {
    expect(decide({ path: `/app/${Q}/page1`, token: 't', custom: null, limited: false })).toEqual({
      kind: 'allow',
      custom: null,
      initApp: Q,
      loadUser: true,
      login: '/login',
    });
  });
  it('an active custom project is not applied to /app', () => {
    expect(decide({ path: `/app/${Q}/p`, token: 't', custom: P, limited: false })).toMatchObject({
      custom: null,
      login: '/login',
    });
  });
  it("a page of the custom project's own system keeps the prefix active (the shell leads back under it)", () => {
    expect(decide({ path: `/app/${P}/p`, token: 't', custom: P, limited: false })).toMatchObject({
      custom: P,
      initApp: P,
      login: `/${P}/login`,
    });
    expect(decide({ path: `/app/${P}/p`, token: 't', custom: null, limited: false })).toMatchObject({
      custom: null,
    });
  });
});

describe('rule 6: sign-in', () => {
  it('no token → login, for every non-login route', () => {
    for (const path of ['/', '/user', '/home/x', '/upgrade', '/system/user', '/dev/provider']) {
      expect(decide({ path, token: null, custom: null, limited: false })).toEqual({
        kind: 'redirect',
        to: '/login',
      });
    }
    expect(decide({ path: `/${P}/user`, token: null, custom: null, limited: false })).toEqual({
      kind: 'redirect',
      to: `/${P}/login`,
    });
  });
  it('login routes need no token', () => {
    for (const path of ['/login', '/login/register', '/login/forget', '/login/abc', `/${P}/login`]) {
      expect(decide({ path, token: null, custom: null, limited: false })).toMatchObject({
        kind: 'allow',
        loadUser: false,
      });
    }
  });
  it('with a token the user is loaded', () => {
    expect(decide({ path: '/', token: 't', custom: null, limited: false })).toMatchObject({
      kind: 'allow',
      loadUser: true,
      initApp: null,
    });
  });
});

describe('rule 7: a limited platform', () => {
  it('sends /dev paths to /dev/expired except preview and expired', () => {
    expect(decide({ path: '/dev/data', token: 't', custom: null, limited: true })).toEqual({
      kind: 'redirect',
      to: '/dev/expired',
    });
    expect(decide({ path: '/dev', token: 't', custom: null, limited: true }).kind).toBe('redirect');
    expect(decide({ path: '/dev/preview/x', token: 't', custom: null, limited: true }).kind).toBe('allow');
    expect(decide({ path: '/dev/expired', token: 't', custom: null, limited: true }).kind).toBe('allow');
  });
  it('leaves other paths, and everything when not limited', () => {
    expect(decide({ path: '/user', token: 't', custom: null, limited: true }).kind).toBe('allow');
    expect(decide({ path: '/dev/data', token: 't', custom: null, limited: false }).kind).toBe('allow');
  });
});

describe('rule 9: links', () => {
  it('app pages open at /page/{id}, prefixed under a custom project', () => {
    expect(pagePath('p1', null)).toBe('/page/p1');
    expect(pagePath('p1', P)).toBe(`/${P}/page/p1`);
  });
  it('page entries go to /app/{projectId}/{value}; tables to the list; dirs nowhere', () => {
    expect(menuPath({ _id: '1', _type: 'page', _value: 'pg' }, Q, P)).toBe(`/app/${Q}/pg`);
    expect(menuPath({ _id: '1', _type: 'table', _value: 'orders' }, Q, null)).toBe('/home/orders');
    expect(menuPath({ _id: '1', _type: 'table', _value: 'orders' }, Q, P)).toBe(`/${P}/home/orders`);
    expect(menuPath({ _id: '1', _type: 'display', _value: 'd1' }, Q, null)).toBe('/display/d1');
    expect(menuPath({ _id: '1', _type: 'dir', _value: null }, Q, null)).toBeNull();
    expect(menuPath({ _id: '1', _type: 'page', _value: null }, Q, null)).toBeNull();
  });
});

describe('rule 10: home', () => {
  it('defaults to /, prefixed unless it starts with /app/', () => {
    expect(homePath(null, null)).toBe('/');
    expect(homePath('', P)).toBe(`/${P}`);
    expect(homePath('/home/orders', P)).toBe(`/${P}/home/orders`);
    expect(homePath(`/app/${Q}/p`, P)).toBe(`/app/${Q}/p`);
    expect(homePath('not-a-path', null)).toBe('/');
  });
});

describe('rule 11: admin routes', () => {
  it('names starting with system', () => {
    expect(isAdminRoute('system')).toBe(true);
    expect(isAdminRoute('/system/menu')).toBe(true);
    expect(isAdminRoute('systemUser')).toBe(true);
    expect(isAdminRoute('/user')).toBe(false);
  });
});

describe('URL query options', () => {
  it('parses every option', () => {
    const o = parseQueryOptions(
      '?mode=mobile&wx_token=w1&wxapp_token=w2&bm_a=1&bm_b=2&babel=x&o_u_token_1=tok&o_w_full=1&console=1&other=z',
    );
    expect(o).toEqual({
      mode: 'mobile',
      wxToken: 'w1',
      wxappToken: 'w2',
      bm: { bm_a: '1', bm_b: '2' },
      babel: 'x',
      loginToken: 'tok',
      fullScreen: true,
      console: true,
    });
  });
  it('ignores a mode other than pc or mobile, and empty tokens', () => {
    const o = parseQueryOptions('?mode=tablet&wx_token=&o_u_token=');
    expect(o.mode).toBeNull();
    expect(o.wxToken).toBeNull();
    expect(o.loginToken).toBeNull();
    expect(parseQueryOptions('').fullScreen).toBe(false);
    expect(parseQueryOptions('?o_w_full=0').fullScreen).toBe(false);
  });
  it('applies: mode stored, tokens stored and queued for exchange, bm_* and babel in session, login token set', () => {
    const local = memStore();
    const session = memStore();
    let token = '';
    session.setItem(NAV_KEYS.sessionScreenMode, 'pc');
    const applied = applyQueryOptions(
      parseQueryOptions(
        '?mode=mobile&wx_token=w1&wxapp_token=w2&bm_x=7&babel=b&o_u_token=tk&o_w_full=1&console=1',
      ),
      { local, session, setToken: (t) => (token = t) },
    );
    expect(local.getItem(NAV_KEYS.screenMode)).toBe('mobile');
    expect(session.getItem(NAV_KEYS.sessionScreenMode)).toBeNull();
    expect(local.getItem(NAV_KEYS.wxToken)).toBe('w1');
    expect(local.getItem(NAV_KEYS.wxappToken)).toBe('w2');
    expect(session.getItem('bm_x')).toBe('7');
    expect(session.getItem(NAV_KEYS.babel)).toBe('b');
    expect(session.getItem(NAV_KEYS.fullScreen)).toBe('1');
    expect(session.getItem(NAV_KEYS.console)).toBe('1');
    expect(token).toBe('tk');
    expect(applied).toEqual({ exchange: ['w1', 'w2'], tokenSet: true });
  });
  it('applying nothing changes nothing', () => {
    const local = memStore();
    const session = memStore();
    const applied = applyQueryOptions(parseQueryOptions('?a=1'), {
      local,
      session,
      setToken: () => {
        throw new Error('no token expected');
      },
    });
    expect(local.data.size + session.data.size).toBe(0);
    expect(applied).toEqual({ exchange: [], tokenSet: false });
  });
  it('strips the consumed keys only', () => {
    expect(stripOptions('?mode=pc&a=1&bm_x=2&o_u_token9=t')).toBe('?a=1');
    expect(stripOptions('?mode=pc')).toBe('');
  });
});

describe('screen mode', () => {
  it('session overrides local, local overrides width', () => {
    const local = memStore();
    const session = memStore();
    expect(screenMode(local, session, 390)).toBe('mobile');
    expect(screenMode(local, session, 1280)).toBe('pc');
    local.setItem(NAV_KEYS.screenMode, 'mobile');
    expect(screenMode(local, session, 1280)).toBe('mobile');
    session.setItem(NAV_KEYS.sessionScreenMode, 'pc');
    expect(screenMode(local, session, 390)).toBe('pc');
  });
  it('the enterprise-messaging entry switches mode', () => {
    expect(wxworkSwitch('normal', 'mobile')).toBe('pc');
    expect(wxworkSwitch('normal', 'pc')).toBeNull();
    expect(wxworkSwitch('single_chat_tools', 'pc')).toBe('mobile');
    expect(wxworkSwitch('single_chat_tools', 'mobile')).toBeNull();
  });
  it('mode=wxwork is mobile, or pc on a PC wider than 500', () => {
    const pc = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) wxwork/4.1.0 MicroMessenger/7.0.1';
    const phone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) wxwork/4.1.0 MicroMessenger/7.0.1';
    expect(parseQueryOptions('?mode=wxwork', { userAgent: pc, width: 1280 }).mode).toBe('pc');
    expect(parseQueryOptions('?mode=wxwork', { userAgent: pc, width: 480 }).mode).toBe('mobile');
    expect(parseQueryOptions('?mode=wxwork', { userAgent: phone, width: 1024 }).mode).toBe('mobile');
    // Without the environment the mode cannot be resolved: left alone.
    expect(parseQueryOptions('?mode=wxwork').mode).toBeNull();
  });
});

describe('root styling flags', () => {
  it('reflect mode, dev, provider and the client', () => {
    const base = { mode: 'pc' as const, dev: false, provider: false };
    expect(rootFlags({ ...base, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120' })).toEqual(['pc']);
    expect(
      rootFlags({
        mode: 'mobile',
        dev: true,
        provider: true,
        userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) MicroMessenger/8.0 miniProgram',
      }),
    ).toEqual(['mobile', 'dev', 'provider', 'ios', 'mini-app', 'weixin']);
    expect(rootFlags({ ...base, userAgent: 'Mozilla/5.0 MicroMessenger/8.0 wxwork/4.1' })).toEqual([
      'pc',
      'wxwork',
    ]);
  });
});
