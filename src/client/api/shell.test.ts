import { beforeEach, describe, expect, it, vi } from 'vitest';

const get = vi.fn();
vi.mock('./request.ts', () => ({ get: (...args: unknown[]) => get(...args), post: vi.fn() }));
const { appInitOnce, forgetAppInits } = await import('./shell.ts');

const P = '6b09818b5336eebee97c1836';
const answer = {
  project: { _id: P, _name: 'Demo', _home: '/', _status: 1 },
  custom: {},
  option: {},
  page: null,
};

describe('app init (rule 5), shared by the route guard and the setup-script loader', () => {
  beforeEach(() => {
    forgetAppInits();
    get.mockReset();
  });

  it('asks once per project: a later caller gets the same answer without a round trip', async () => {
    get.mockResolvedValue(answer);
    const first = appInitOnce(P);
    const second = appInitOnce(P);
    expect(await first).toBe(answer);
    expect(await second).toBe(answer);
    expect(await appInitOnce(P)).toBe(answer);
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0]![0]).toBe(`/api/common/app/${P}/init`);
  });

  it('asks per project', async () => {
    get.mockResolvedValue(answer);
    await appInitOnce(P);
    await appInitOnce('6b09818b5336eebee97c1837');
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('forgets a failure, so the next caller asks again', async () => {
    get.mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(answer);
    await expect(appInitOnce(P)).rejects.toThrow('offline');
    expect(await appInitOnce(P)).toBe(answer);
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('asks again after sign-out or reset (forgetAppInits)', async () => {
    get.mockResolvedValue(answer);
    await appInitOnce(P);
    forgetAppInits();
    await appInitOnce(P);
    expect(get).toHaveBeenCalledTimes(2);
  });
});
