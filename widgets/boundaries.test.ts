/** Keeps renders inside their boundary: shared code, runtime hooks, UI libraries; heavy libraries only lazily. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname);
const kinds = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const ALLOWED = [
  /^react$/,
  /^antd$/,
  /^@ant-design\/icons$/,
  /^\.\.\/\.\.\/src\/shared\//,
  /^\.\.\/\.\.\/src\/client\/runtime\//,
  /^\.\.\/define\.ts$/,
  /^@dnd-kit\/(core|sortable|utilities)$/,
  /^\.\/schema\.json$/,
];
const LAZY_ONLY = ['echarts', 'jsbarcode', 'quill', 'monaco-editor'];

describe.each(kinds)('%s', (kind) => {
  const files = readdirSync(join(ROOT, kind)).filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes('.test.'));
  it('imports only shared code, runtime hooks and UI libraries statically', () => {
    for (const f of files) {
      const src = readFileSync(join(ROOT, kind, f), 'utf8');
      for (const m of src.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)) {
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
});
