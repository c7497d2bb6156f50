/**
 * The server may use the widget registry, validator and restorer, but never view code: walk the static
 * imports from the app (relative paths followed, `import type` and lazy `import()` skipped) and check
 * that no .tsx file, client module or UI library is reached.
 */
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, staticGraph } from '../helpers/import-graph.ts';

// jsbarcode is allowed: xlsx template export uses its encoder (bars as data, no DOM) for barcode images.
const FORBIDDEN_PACKAGES = /^(antd|@ant-design\/|react-dom|echarts|quill|monaco-editor|@monaco-editor\/)/;

it('the server reaches the widget registry but no view code or UI library', () => {
  const { files, packages } = staticGraph(join(ROOT, 'src/server/app.ts'));
  const own = [...files].map((f) => relative(ROOT, f));
  expect(own).toContain('widgets/index.ts');
  expect(own).toContain('widgets/validate.ts');
  expect(own).toContain('widgets/restore.ts');
  expect(own.filter((f) => f.endsWith('.tsx') || f.startsWith('src/client/'))).toEqual([]);
  expect([...packages].filter((p) => FORBIDDEN_PACKAGES.test(p))).toEqual([]);
});

// Loaded with their first use rather than with the server (idle memory, issue #19): co-editing's
// document code, the pure-JS envelope primitives (the server has native ones) and the zip writer.
const ON_FIRST_USE = /^(yjs|y-protocols|lib0|@noble\/|fflate)(\/|$)/;

it('the server starts without the packages it loads on first use', () => {
  const { packages } = staticGraph(join(ROOT, 'src/server/serve.ts'));
  expect([...packages].filter((p) => ON_FIRST_USE.test(p))).toEqual([]);
});
