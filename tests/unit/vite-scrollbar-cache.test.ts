import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CACHED, scrollbarSizeCache } from '../../scripts/vite-scrollbar-cache.ts';

const require = createRequire(import.meta.url);

type Transform = (code: string, id: string) => { code: string } | null;
function transform(code: string, id: string) {
  const plugin = scrollbarSizeCache();
  const ctx = {
    error(msg: string): never {
      throw new Error(msg);
    },
  };
  return (plugin.transform as unknown as Transform).call(ctx, code, id);
}

describe('scrollbar size cache plugin', () => {
  const file = require.resolve('@rc-component/util/es/getScrollBarSize.js');
  const original = fs.readFileSync(file, 'utf8');

  it('rewrites the installed rc-util module, and only it', () => {
    const out = transform(original, file);
    expect(out?.code).toContain('function measuredTargetScrollBarSize(target) {');
    expect(out?.code.match(/export function getTargetScrollBarSize/g)).toHaveLength(1);
    expect(transform(original, '/x/node_modules/other/es/getScrollBarSize.js')).toBeNull();
  });

  it('fails the build loudly when rc-util changes shape', () => {
    expect(() => transform('export function somethingElse() {}', file)).toThrow(/changed/);
  });

  it('measures once per distinct scrollbar style and zoom', () => {
    class Element {
      constructor(readonly bar: string) {}
    }
    let measured = 0;
    const styles = (el: Element, pseudo?: string) =>
      pseudo ? { width: el.bar, height: el.bar } : { scrollbarWidth: 'auto', scrollbarColor: 'auto' };
    const win = { devicePixelRatio: 1 };
    const make = new Function(
      'Element',
      'getComputedStyle',
      'document',
      'window',
      'measuredTargetScrollBarSize',
      `${CACHED.replace('export function', 'function')}; return getTargetScrollBarSize;`,
    );
    const get = make(Element, styles, {}, win, (el: Element) => {
      measured++;
      return { width: Number.parseInt(el.bar, 10) || 15, height: 15 };
    }) as (t: unknown) => { width: number; height: number };
    expect(get(new Element(''))).toEqual({ width: 15, height: 15 });
    expect(get(new Element(''))).toEqual({ width: 15, height: 15 });
    expect(measured).toBe(1);
    expect(get(new Element('8px'))).toEqual({ width: 8, height: 15 });
    expect(measured).toBe(2);
    win.devicePixelRatio = 2;
    get(new Element(''));
    expect(measured).toBe(3);
    expect(get(null)).toEqual({ width: 0, height: 0 });
    // Callers get their own object (the cache can't be changed through a result).
    const a = get(new Element(''));
    a.width = 99;
    expect(get(new Element('')).width).toBe(15);
  });
});
