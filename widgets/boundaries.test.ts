/**
 * Keeps kinds inside their boundary: their own folder, the kit (./kit/: runtime context hooks and
 * helpers several kinds share), shared code and UI libraries; heavy libraries only lazily. Imports run
 * one way: runtime → widgets → kit → src/shared.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname);
const kinds = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'kit')
  .map((d) => d.name);
const ALLOWED = [
  /^react$/,
  /^antd$/,
  /^@ant-design\/icons$/,
  /^\.\.\/\.\.\/src\/shared\//,
  /^\.\.\/kit\/[A-Za-z-]+\.tsx?$/,
  /^\.\.\/define\.ts$/,
  /^\.\/[A-Za-z-]+\.tsx?$/,
  /^@dnd-kit\/(core|sortable|utilities)$/,
  /^\.\/schema\.json$/,
];
const LAZY_ONLY = ['echarts', 'jsbarcode', 'quill', 'monaco-editor'];
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm;

describe.each(kinds)('%s', (kind) => {
  const files = readdirSync(join(ROOT, kind)).filter(
    // fixture.ts is test support for events.test.tsx, imported by no app code.
    (f) => /\.(ts|tsx)$/.test(f) && !f.includes('.test.') && f !== 'fixture.ts',
  );
  it('imports only shared code, runtime hooks and UI libraries statically', () => {
    for (const f of files) {
      const src = readFileSync(join(ROOT, kind, f), 'utf8');
      for (const m of src.matchAll(IMPORT)) {
        const spec = m[1]!;
        expect(
          ALLOWED.some((re) => re.test(spec)),
          `${kind}/${f} imports ${spec}`,
        ).toBe(true);
        expect(spec).not.toMatch(/designer/);
      }
      for (const lib of LAZY_ONLY)
        expect(src, `${kind}/${f} imports ${lib} statically`).not.toMatch(new RegExp(`from '${lib}`));
      expect(src).not.toMatch(/\bfetch\(|XMLHttpRequest|\beval\(|new Function/);
    }
  });
  it('loads its view lazily from index.ts', () => {
    expect(readFileSync(join(ROOT, kind, 'index.ts'), 'utf8')).toMatch(
      /render: \(\) => import\('\.\/render\.tsx'\)/,
    );
  });
  it('loads its property panel only lazily, so the runtime never fetches designer code', () => {
    const index = readFileSync(join(ROOT, kind, 'index.ts'), 'utf8');
    if (files.includes('panel.tsx')) expect(index).toMatch(/panel: \(\) => import\('\.\/panel\.tsx'\)/);
    for (const f of files.filter((x) => x !== 'panel.tsx')) {
      const src = readFileSync(join(ROOT, kind, f), 'utf8');
      for (const m of src.matchAll(IMPORT))
        expect(m[1], `${kind}/${f}`).not.toMatch(/panel\.tsx$|Panel\.tsx$/);
    }
  });
});

describe('kit', () => {
  const files = readdirSync(join(ROOT, 'kit')).filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes('.test.'));
  const sources = new Map(files.map((f) => [f, readFileSync(join(ROOT, 'kit', f), 'utf8')]));
  /** Kit modules that only dynamic imports reach (`import('./x.ts')`), from the kit and the kinds. */
  const lazyOnly = (f: string): boolean => {
    const statically = new RegExp(`from '(\\./|\\.\\./kit/)${f.replace('.', '\\.')}'`);
    const users = [
      ...sources.values(),
      ...kinds
        .flatMap((k) => readdirSync(join(ROOT, k)).map((x) => join(k, x)))
        .filter((x) => /\.(ts|tsx)$/.test(x) && !x.includes('.test.'))
        .map((x) => readFileSync(join(ROOT, x), 'utf8')),
    ];
    return (
      !users.some((u) => statically.test(u)) &&
      [...sources.values()].some((u) => u.includes(`import('./${f}')`))
    );
  };
  it.each(files)('%s imports only shared code, React and its own folder', (f) => {
    const src = sources.get(f)!;
    // A module only ever imported dynamically (kit/echarts.ts: the echarts parts the kinds draw
    // with) is its own lazy chunk, so it may import a lazy-only library.
    const lazyLibs = lazyOnly(f) ? LAZY_ONLY : [];
    for (const m of src.matchAll(IMPORT))
      expect(
        [
          /^react$/,
          /^antd$/,
          /^@ant-design\/icons$/,
          // antd's own date values (its pickers take them): already in every bundle with antd.
          /^dayjs$/,
          /^\.\.\/\.\.\/src\/shared\//,
          /^\.\.\/define\.ts$/,
          /^\.\/[A-Za-z-]+\.tsx?$/,
        ].some((re) => re.test(m[1]!)) || lazyLibs.some((lib) => m[1] === lib || m[1]!.startsWith(`${lib}/`)),
        `kit/${f} imports ${m[1]}`,
      ).toBe(true);
    for (const lib of LAZY_ONLY.filter((l) => !lazyLibs.includes(l)))
      expect(src, `kit/${f} imports ${lib} statically`).not.toMatch(new RegExp(`from '${lib}`));
  });
  it('echarts.ts is reached only through a dynamic import', () => {
    expect(lazyOnly('echarts.ts')).toBe(true);
  });
});
