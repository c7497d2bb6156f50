import { describe, expect, it } from 'vitest';
import { WIDGETS } from '../../../widgets/index.ts';
import * as icons from './palette-icons.ts';

describe('palette icons', () => {
  it("hold every kind's icon (add a new one to palette-icons.ts)", () => {
    const missing = WIDGETS.filter((w) => !(w.meta.icon in icons)).map((w) => `${w.kind}: ${w.meta.icon}`);
    expect(missing).toEqual([]);
  });

  it('hold no icon that no kind names', () => {
    const named = new Set(WIDGETS.map((w) => w.meta.icon));
    expect(Object.keys(icons).filter((k) => !named.has(k))).toEqual([]);
  });
});
