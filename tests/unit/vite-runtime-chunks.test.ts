import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  ALL,
  type ModuleShape,
  runtimeChunks,
  shapeOf,
  usedClosure,
} from '../../scripts/vite-runtime-chunks.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'fixtures/runtime-chunks');

describe('runtime chunks: module shapes', () => {
  it('reads imports, re-exports, stars and local exports', () => {
    const s = shapeOf(`
      import React, { useState as us } from 'react';
      import * as icons from './icons';
      import './side.css';
      export { default as Button, Space } from './button';
      export * from './more';
      export * as ns from './ns';
      export const one = 1, two = 2;
      export function three() {}
      export default class Four {}
      const five = 5;
      export { five };
    `);
    expect(s.imports.get('react')).toEqual(new Set(['default', 'useState']));
    expect(s.imports.get('./icons')).toEqual(new Set([ALL]));
    expect(s.imports.get('./side.css')).toEqual(new Set());
    expect(s.reexports.get('Button')).toEqual(['./button', 'default']);
    expect(s.reexports.get('Space')).toEqual(['./button', 'Space']);
    expect(s.reexports.get('ns')).toEqual(['./ns', ALL]);
    expect(s.stars).toEqual(['./more']);
    expect([...s.locals].sort()).toEqual(['default', 'five', 'one', 'three', 'two']);
  });
});

describe('runtime chunks: the used closure', () => {
  const mods: Record<string, string> = {
    root: `import { B } from 'lib'; import 'side';`,
    lib: `import warn from 'warn'; export { A } from 'a'; export { B } from 'b'; export * from 'more';`,
    more: `export { C } from 'c';`,
    a: 'export const A = 1;',
    b: `import { C } from 'lib'; export const B = C;`,
    c: 'export const C = 1;',
    side: 'window.x = 1;',
    warn: 'export default 1;',
  };
  const shapes = new Map(Object.entries(mods).map(([k, v]) => [k, shapeOf(v)]));
  const shape = (id: string): ModuleShape | null => shapes.get(id) ?? null;
  const resolve = (source: string) => (shapes.has(source) ? source : null);

  it('follows only the names used through a re-exporting module', () => {
    const used = usedClosure(['root'], shape, resolve);
    // `a` is re-exported by lib but nobody asks for A; lib itself only passes names through.
    expect([...used].sort()).toEqual(['b', 'c', 'root', 'side', 'warn']);
  });

  it('a namespace import takes every re-export', () => {
    shapes.set('ns-root', shapeOf(`import * as all from 'lib';`));
    const used = usedClosure(['ns-root'], shape, resolve);
    expect([...used].sort()).toEqual(['a', 'b', 'c', 'lib', 'more', 'ns-root', 'warn']);
  });

  it('skips what is not in the build', () => {
    expect([...usedClosure(['nothing'], shape, resolve)]).toEqual([]);
  });
});

/** Builds the fixture from `main` with the plugin, in memory. */
async function buildFixture(main: string): Promise<Rolldown.RolldownOutput> {
  const chunks = runtimeChunks(fixture, ['page.ts']);
  return (await build({
    root: fixture,
    configFile: false,
    logLevel: 'silent',
    plugins: [chunks.plugin],
    build: {
      write: false,
      minify: false,
      modulePreload: false,
      lib: false,
      rolldownOptions: {
        input: path.join(fixture, main),
        output: { codeSplitting: chunks.codeSplitting },
        preserveEntrySignatures: 'allow-extension',
      },
    },
  })) as Rolldown.RolldownOutput;
}

describe('runtime chunks: a real build', () => {
  it('puts the entry in one file and the page path, without unused re-exports, in the runtime chunk', async () => {
    const out = await buildFixture('main.ts');
    const js = out.output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
    const mods = (c: Rolldown.OutputChunk) =>
      Object.keys(c.modules)
        .filter((id) => id.startsWith(fixture) && c.modules[id]!.renderedLength > 0)
        .map((id) => path.relative(fixture, id))
        .sort();
    const entry = js.find((c) => c.isEntry)!;
    const runtime = js.find((c) => c.name === 'runtime')!;
    expect(mods(entry)).toEqual(['lib/a.ts', 'main.ts']);
    // The entry never loads the runtime chunk up front.
    expect(entry.imports).not.toContain(runtime.fileName);
    expect(mods(runtime)).toEqual(['lib/b.ts', 'lib/d.ts', 'page.ts', 'shared.ts']);
    // Only the designer uses c: it stays out of the page path's file.
    const rest = js.filter((c) => c !== entry && c !== runtime).flatMap(mods);
    expect(rest).toContain('lib/c.ts');
    expect(rest).toContain('designer.ts');
  });

  it('fails the build when a page-path module would load through a re-export file (top-level await in the entry)', async () => {
    await expect(buildFixture('main-tla.ts')).rejects.toThrow(/re-export file of their own/);
  });
});
