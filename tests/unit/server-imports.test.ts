/**
 * The server may use the widget registry, validator and restorer, but never view code: walk the static
 * imports from the app (relative paths followed, `import type` and lazy `import()` skipped) and check
 * that no .tsx file, client module or UI library is reached.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const STATIC = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm;
// jsbarcode is allowed: xlsx template export uses its encoder (bars as data, no DOM) for barcode images.
const FORBIDDEN_PACKAGES = /^(antd|@ant-design\/|react-dom|echarts|quill|monaco-editor|@monaco-editor\/)/;

function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(ts|tsx)$/.test(file)) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const target = resolve(dirname(file), spec);
      if (existsSync(target)) todo.push(target);
    }
  }
  return { files, packages };
}

it('the server reaches the widget registry but no view code or UI library', () => {
  const { files, packages } = staticGraph(join(ROOT, 'src/server/app.ts'));
  const own = [...files].map((f) => relative(ROOT, f));
  expect(own).toContain('widgets/index.ts');
  expect(own).toContain('widgets/validate.ts');
  expect(own).toContain('widgets/restore.ts');
  expect(own.filter((f) => f.endsWith('.tsx') || f.startsWith('src/client/'))).toEqual([]);
  expect([...packages].filter((p) => FORBIDDEN_PACKAGES.test(p))).toEqual([]);
});
