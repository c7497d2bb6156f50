/**
 * One page size: the default and the limit live in src/shared/constants.ts; the widget and page
 * schemas, the server's query parser and the runtime's requests must say the same.
 */
import { describe, expect, it } from 'vitest';
import pageSchema from '../../schemas/page.schema.json' with { type: 'json' };
import { widgetQuery } from '../../src/client/runtime/data-source.ts';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, QUERY_ALL_LIMIT } from '../../src/shared/constants.ts';
import { normalize } from '../../src/shared/query/index.ts';
import { getWidget, WIDGETS } from '../../widgets/index.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every `size` schema under a `page` object schema, with where it is. */
function pageSizeSchemas(s: unknown, path = ''): [string, Json][] {
  if (Array.isArray(s)) return s.flatMap((x, i) => pageSizeSchemas(x, `${path}/${i}`));
  if (!isObj(s)) return [];
  const own: [string, Json][] = [];
  const page = isObj(s.properties) ? s.properties.page : undefined;
  if (isObj(page) && isObj(page.properties) && isObj(page.properties.size))
    own.push([`${path}/properties/page/properties/size`, page.properties.size]);
  return [...own, ...Object.entries(s).flatMap(([k, v]) => pageSizeSchemas(v, `${path}/${k}`))];
}

describe('page size', () => {
  it('is the spec’s: default 20, at most what an all-data query takes', () => {
    expect(PAGE_SIZE_DEFAULT).toBe(20);
    expect(PAGE_SIZE_MAX).toBe(QUERY_ALL_LIMIT);
    expect(QUERY_ALL_LIMIT).toBe(10_000);
  });

  it('the page schema’s data source page sizes allow exactly 1 … PAGE_SIZE_MAX', () => {
    const found = pageSizeSchemas(pageSchema);
    expect(found.length).toBeGreaterThan(0);
    for (const [at, s] of found)
      expect({ at, min: s.minimum, max: s.maximum }).toEqual({ at, min: 1, max: PAGE_SIZE_MAX });
  });

  it.each(['table', 'advanced-table'])(
    '%s: its pageSize prop defaults to PAGE_SIZE_DEFAULT, at most PAGE_SIZE_MAX',
    (kind) => {
      const s = getWidget(kind)!.schema.properties.pageSize as Json;
      expect([s.default, s.minimum, s.maximum]).toEqual([PAGE_SIZE_DEFAULT, 1, PAGE_SIZE_MAX]);
    },
  );

  it('no kind lets a pageSize prop exceed PAGE_SIZE_MAX', () => {
    for (const w of WIDGETS) {
      const s = w.schema.properties.pageSize as Json | undefined;
      if (s) expect(s.maximum, w.kind).toBeLessThanOrEqual(PAGE_SIZE_MAX);
    }
  });

  it('the runtime asks for the size the schema allows, clamped at PAGE_SIZE_MAX', () => {
    const size = (props: Json, page?: { index: number; size: number }) =>
      widgetQuery('rows', { entity: 'e', ...props }, {}, page)?.body?.page?.size;
    expect(size({})).toBe(PAGE_SIZE_DEFAULT);
    expect(size({ pageSize: 5000 })).toBe(5000);
    expect(size({ pageSize: PAGE_SIZE_MAX + 1 })).toBe(PAGE_SIZE_MAX);
    expect(size({}, { index: 2, size: 5000 })).toBe(5000);
    expect(size({}, { index: 2, size: 50_000 })).toBe(PAGE_SIZE_MAX);
  });

  it('the server takes at most PAGE_SIZE_MAX rows a page', () => {
    const limit = (page: unknown) => {
      const r = normalize({ page }, { now: Date.now() });
      if (!r.ok) throw new Error(r.error.message);
      return r.query.limit;
    };
    expect(limit(undefined)).toBe(PAGE_SIZE_DEFAULT);
    expect(limit({ size: 5000 })).toBe(5000);
    expect(limit({ size: PAGE_SIZE_MAX * 5 })).toBe(PAGE_SIZE_MAX);
  });
});
