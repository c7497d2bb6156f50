/** Saves tell open pages which table changed; names (code or _id) of one table are matched. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../../../tests/helpers/memory-storage.ts';
import { entityMeta, onEntityChanged, removeRecord, sameEntity, saveRecord } from './data-source.ts';

/** The server side of the calls: answers by URL suffix, records what was sent. */
function server(answers: Record<string, unknown>) {
  const sent: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      sent.push(url);
      const hit = Object.entries(answers).find(([suffix]) => url.endsWith(suffix));
      return new Response(JSON.stringify(hit ? hit[1] : { error: 1003, msg: 'not found' }));
    }),
  );
  return sent;
}

describe('entity changes', () => {
  beforeEach(() => {
    const storage = memoryStorage();
    storage.setItem('lc_raw', '1');
    vi.stubGlobal('localStorage', storage);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('a save and a removal tell the listeners which table changed; a refused save tells nobody', async () => {
    const seen: string[] = [];
    const stop = onEntityChanged((project, entity) => seen.push(`${project}/${entity}`));
    const sent = server({
      '/customer/save': { error: 0, data: { _id: 'r1' } },
      '/customer/r1/update': { error: 0, data: { _id: 'r1' } },
      '/customer/r1/remove': { error: 0, data: null },
      '/order/save': { error: 1450, msg: 'unknown field' },
    });
    await saveRecord('p1', 'customer', { name: 'Ann' });
    await saveRecord('p1', 'customer', { name: 'Bob' }, 'r1');
    await removeRecord('p1', 'customer', 'r1');
    await expect(saveRecord('p1', 'order', { x: 1 })).rejects.toMatchObject({ code: 1450 });
    expect(sent).toEqual([
      '/api/app/simple/p1/customer/save',
      '/api/app/simple/p1/customer/r1/update',
      '/api/app/simple/p1/customer/r1/remove',
      '/api/app/simple/p1/order/save',
    ]);
    expect(seen).toEqual(['p1/customer', 'p1/customer', 'p1/customer']);
    stop();
    await saveRecord('p1', 'customer', { name: 'Cy' });
    expect(seen).toHaveLength(3);
  });

  it('matches a table named by code with the same table named by _id once its meta is known', async () => {
    server({
      '/p2/customer/meta': {
        error: 0,
        data: { entity: { _id: 'e1', _code: 'customer', _name: 'C' }, field: [] },
      },
    });
    expect(sameEntity('p2', 'customer', 'customer')).toBe(true);
    expect(sameEntity('p2', 'customer', 'e1')).toBe(false);
    await entityMeta('p2', 'customer');
    expect(sameEntity('p2', 'customer', 'e1')).toBe(true);
    expect(sameEntity('p2', 'e1', 'customer')).toBe(true);
    expect(sameEntity('p2', 'customer', 'order')).toBe(false);
    expect(sameEntity('p2', '', 'customer')).toBe(false);
  });
});
