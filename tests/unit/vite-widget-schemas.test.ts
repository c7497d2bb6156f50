import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { attachAll, deferredKinds, deferSchema, widgetSchemas } from '../../scripts/vite-widget-schemas.ts';
import { attachSchemas, defineWidget, laterSchema } from '../../widgets/define.ts';
import { WIDGETS } from '../../widgets/registry.ts';

const widgetsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../widgets');
const read = (f: string) => fs.readFileSync(path.join(widgetsDir, f), 'utf8');

type Transform = (code: string, id: string) => { code: string } | null;
function plugin() {
  const p = widgetSchemas(widgetsDir);
  const ctx = {
    error(msg: string): never {
      throw new Error(msg);
    },
  };
  (p.buildStart as unknown as () => void).call(ctx);
  return (code: string, id: string) => (p.transform as unknown as Transform).call(ctx, code, id);
}

describe('widget schemas plugin', () => {
  it('takes every registered kind’s schema out of its module', () => {
    expect(deferredKinds(widgetsDir)).toEqual(WIDGETS.map((w) => w.kind).sort());
  });

  it('replaces the schema import of a kind module, and leaves other modules alone', () => {
    const transform = plugin();
    const button = path.join(widgetsDir, 'button/index.ts');
    const out = transform(read('button/index.ts'), button)!.code;
    expect(out).not.toContain('schema.json');
    expect(out).toContain('__laterSchema("button")');
    expect(transform(read('button/render.tsx'), path.join(widgetsDir, 'button/render.tsx'))).toBeNull();
    expect(transform(read('define.ts'), path.join(widgetsDir, 'define.ts'))).toBeNull();
    // A file of that name elsewhere is not a kind module.
    expect(transform(read('button/index.ts'), '/elsewhere/widgets/button/index.ts')).toBeNull();
    // The folder must be the kind the module declares.
    expect(deferSchema(read('button/index.ts'), 'text')).toBeNull();
  });

  it('makes the full registry import and attach every kind’s schema', () => {
    const transform = plugin();
    const out = transform(read('index.ts'), path.join(widgetsDir, 'index.ts'))!.code;
    for (const w of WIDGETS) expect(out).toContain(`from './${w.kind}/schema.json'`);
    expect(out).toContain('__attachSchemas({');
    expect(out.endsWith(read('index.ts'))).toBe(true);
    expect(attachAll('x;', ['a', 'b-c'])).toBe(
      [
        "import { attachSchemas as __attachSchemas } from './define.ts';",
        "import __schema0 from './a/schema.json' with { type: 'json' };",
        "import __schema1 from './b-c/schema.json' with { type: 'json' };",
        '__attachSchemas({',
        '  "a": __schema0,',
        '  "b-c": __schema1,',
        '});',
        'x;',
      ].join('\n'),
    );
  });
});

describe('a kind declared with laterSchema', () => {
  const schema = {
    type: 'object',
    properties: { label: { type: 'string', default: 'Go' }, size: { type: 'number', default: 2 } },
    additionalProperties: false,
  };
  const input = (kind: string, s: unknown) => ({
    kind,
    category: 'base' as const,
    schema: s,
    defaults: { size: 3 },
    render: async () => () => null,
    meta: { title: { zh: '试', en: 'Try' }, icon: 'X', size: { width: 1, height: 1 } },
  });

  it('reads its schema and defaults once attached, as an inline one does', () => {
    const def = defineWidget(input('later-one', laterSchema('later-one')));
    expect(() => def.schema).toThrow(/later-one: props schema not attached/);
    expect(() => def.defaults).toThrow(/not attached/);
    attachSchemas({ 'later-one': schema });
    const inline = defineWidget(input('inline-one', schema));
    expect(def.schema).toBe(schema);
    expect(def.defaults).toEqual(inline.defaults);
    expect(def.defaults).toEqual({ label: 'Go', size: 3 });
    expect(def.defaults).toBe(def.defaults);
  });

  it('refuses an open schema at attach time and a schema kept for another kind', () => {
    expect(() => attachSchemas({ 'later-two': { type: 'object', properties: {} } })).toThrow(
      /later-two: props schema must be a closed object/,
    );
    expect(() => defineWidget(input('later-three', laterSchema('other')))).toThrow(/kept for kind other/);
  });
});
