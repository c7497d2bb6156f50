import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../../../tests/helpers/memory-storage.ts';
import { open, seal } from '../../shared/envelope.ts';
import { setApiEffects } from './effects.ts';
import { clearRequestCache, get, post } from './request.ts';

const TOKEN = 'a-token-long-enough-for-its-own-key';

interface Sent {
  url: string;
  init: RequestInit;
}

function answerWith(body: unknown, status = 200) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
    }),
  );
  return sent;
}

describe('request wrapper', () => {
  const effects = {
    navigate: vi.fn(),
    notifyError: vi.fn(),
    partnerModal: vi.fn(),
    setLimited: vi.fn(),
    warnCrowded: vi.fn(),
  };
  let restore: () => void;

  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    localStorage.setItem('token', TOKEN);
    restore = setApiEffects(effects);
  });
  afterEach(() => {
    restore();
    vi.unstubAllGlobals();
    vi.clearAllMocks();
  });

  it('seals the body, sends token and x-envelope, opens the sealed answer', async () => {
    const sent = answerWith({ error: 0, encrypted: seal({ error: 0, data: { id: 7 } }, TOKEN) });
    const data = await post<{ id: number }>('/api/x', { name: 'n' });
    expect(data).toEqual({ id: 7 });
    const headers = sent[0]!.init.headers as Record<string, string>;
    expect(headers.token).toBe(TOKEN);
    expect(headers['x-envelope']).toBe('1');
    const body = JSON.parse(sent[0]!.init.body as string) as { encrypted: string };
    expect(open(body.encrypted, TOKEN)).toEqual({ name: 'n' });
  });

  it('raw mode sends plain JSON without the envelope header', async () => {
    localStorage.setItem('lc_raw', '1');
    const sent = answerWith({ error: 0, data: [1] });
    expect(await post('/api/raw', { a: 1 })).toEqual([1]);
    expect(sent[0]!.init.body).toBe('{"a":1}');
    expect((sent[0]!.init.headers as Record<string, string>)['x-envelope']).toBeUndefined();
  });

  it.each([
    [102, 'navigate'],
    [104, 'setLimited'],
    [105, 'partnerModal'],
  ] as const)('code %i is handled silently by %s', async (code, effect) => {
    answerWith({ error: code, msg: 'm' }, 403);
    await expect(get(`/api/c${code}`)).rejects.toMatchObject({ code, silent: true });
    expect(effects[effect]).toHaveBeenCalledTimes(1);
    expect(effects.notifyError).not.toHaveBeenCalled();
    if (code === 102) expect(effects.navigate).toHaveBeenCalledWith('/dev/queue');
  });

  it('other codes show a notice with code and message', async () => {
    answerWith({ error: 1104, msg: 'wrong account or password' }, 400);
    await expect(post('/api/login', {})).rejects.toMatchObject({ code: 1104 });
    expect(effects.notifyError).toHaveBeenCalledWith(1104, 'wrong account or password');
  });

  it('a network failure shows -2 请求错误', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('failed to fetch');
      }),
    );
    await expect(get('/api/down')).rejects.toMatchObject({ code: -2 });
    expect(effects.notifyError).toHaveBeenCalledWith(-2, '请求错误');
  });

  it('a non-JSON HTTP error shows its status', async () => {
    answerWith('<html>bad gateway</html>', 502);
    await expect(get('/api/gw')).rejects.toMatchObject({ code: 502 });
    expect(effects.notifyError).toHaveBeenCalledTimes(1);
  });

  describe('answer cache (client default disabled, 30 min when asked)', () => {
    afterEach(() => clearRequestCache());

    it('by default every call goes out', async () => {
      const sent = answerWith({ error: 0, data: 1 });
      await post('/api/x', { a: 1 }, { share: false });
      await post('/api/x', { a: 1 }, { share: false });
      expect(sent).toHaveLength(2);
    });

    it('a caller asking for the cache gets the stored answer until its ttl', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const sent = answerWith({ error: 0, data: { n: 1 } });
        expect(await post('/api/c', { a: 1 }, { share: false, cache: 1000 })).toEqual({ n: 1 });
        expect(await post('/api/c', { a: 1 }, { share: false, cache: 1000 })).toEqual({ n: 1 });
        expect(sent).toHaveLength(1);
        // Another body is another entry.
        await post('/api/c', { a: 2 }, { share: false, cache: 1000 });
        expect(sent).toHaveLength(2);
        vi.setSystemTime(Date.now() + 1000);
        await post('/api/c', { a: 1 }, { share: false, cache: 1000 });
        expect(sent).toHaveLength(3);
        // true means the 30-minute client cache.
        await get('/api/d', { share: false, cache: true });
        vi.setSystemTime(Date.now() + 29 * 60_000);
        await get('/api/d', { share: false, cache: true });
        expect(sent).toHaveLength(4);
        clearRequestCache();
        await get('/api/d', { share: false, cache: true });
        expect(sent).toHaveLength(5);
      } finally {
        vi.useRealTimers();
      }
    });

    it('errors are not cached', async () => {
      answerWith({ error: 1003, msg: 'not found' }, 404);
      await expect(get('/api/e', { share: false, cache: true, quiet: true })).rejects.toMatchObject({
        code: 1003,
      });
      const sent = answerWith({ error: 0, data: 7 });
      expect(await get('/api/e', { share: false, cache: true })).toBe(7);
      expect(sent).toHaveLength(1);
    });
  });
});
