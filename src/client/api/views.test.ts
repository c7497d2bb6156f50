import { describe, expect, it, vi } from 'vitest';

const post = vi.fn();
vi.mock('./request.ts', () => ({ post: (...args: unknown[]) => post(...args), get: vi.fn() }));
vi.mock('./field-sets.ts', () => ({ withSetLists: async (_p: string, fields: unknown) => fields }));
const { viewsApi } = await import('./views.ts');

const meta = (n: number) => ({ entity: { _id: 't', _code: 'customer', _name: `v${n}` }, field: [] });

describe('views meta', () => {
  it('views of one table opened together share one call; once answered, the next asks afresh', async () => {
    let answer!: (v: unknown) => void;
    post.mockReturnValueOnce(new Promise((r) => (answer = r))).mockResolvedValueOnce(meta(9));
    const a = viewsApi.meta('p', 'customer');
    const b = viewsApi.meta('p', 'customer');
    const other = viewsApi.meta('p', 'order');
    expect(post).toHaveBeenCalledTimes(2);
    expect(post.mock.calls.map((c) => c[0])).toEqual([
      '/api/app/simple/p/customer/meta',
      '/api/app/simple/p/order/meta',
    ]);
    answer(meta(1));
    expect(await a).toEqual(meta(1));
    expect(await b).toBe(await a);
    expect(await other).toEqual(meta(9));
    post.mockResolvedValueOnce(meta(2));
    expect(await viewsApi.meta('p', 'customer')).toEqual(meta(2));
    expect(post).toHaveBeenCalledTimes(3);
  });

  it('a refused call is not kept: the next asks again', async () => {
    post.mockReset();
    post.mockRejectedValueOnce(Object.assign(new Error('no'), { code: 2095 }));
    await expect(viewsApi.meta('p', 'secret')).rejects.toMatchObject({ code: 2095 });
    post.mockResolvedValueOnce(meta(3));
    expect(await viewsApi.meta('p', 'secret')).toEqual(meta(3));
    expect(post).toHaveBeenCalledTimes(2);
  });
});
