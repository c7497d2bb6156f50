/**
 * Imports run one way: runtime → widgets → widgets/kit → src/shared (DESIGN.md "Boundaries"). Shared
 * code names nothing of ours above it (not even a type), and the end-user runtime never reaches the
 * designer, so the page path's bundle cannot pull designer code in. Server modules form no import
 * cycle: areas lean on access/decide.ts, which leans on their services, never back.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, namedImports, ROOT, sourcesUnder, staticGraph } from '../helpers/import-graph.ts';

const rel = (f: string) => relative(ROOT, f);

describe('src/shared', () => {
  it.each(sourcesUnder(join(ROOT, 'src/shared')).map((f) => [rel(f), f]))(
    '%s names only src/shared modules',
    (_name, file) => {
      const outside = namedImports(file)
        .filter((i) => i.target && !rel(i.target).startsWith('src/shared/'))
        .map((i) => i.spec);
      expect(outside).toEqual([]);
    },
  );
});

describe('src/client/runtime', () => {
  const files = sourcesUnder(join(ROOT, 'src/client/runtime'));
  it('names no designer module, statically or lazily', () => {
    const named = files.flatMap((f) =>
      namedImports(f)
        .filter((i) => i.target && rel(i.target).startsWith('src/client/designer'))
        .map((i) => `${rel(f)} → ${i.spec}`),
    );
    expect(named).toEqual([]);
  });
  it('reaches no designer module through static imports', () => {
    const reached = new Set<string>();
    for (const f of files) for (const r of staticGraph(f).files) reached.add(rel(r));
    expect(reached.size).toBeGreaterThan(files.length);
    expect([...reached].filter((f) => f.startsWith('src/client/designer'))).toEqual([]);
  });
});

describe('the cold page path', () => {
  // The browser seals and opens on WebCrypto (api/web-envelope.ts); the pure-JS cipher and inflater
  // load only where WebCrypto is missing, and the socket channel only when a live page needs it.
  const roots = [
    'src/client/main.tsx',
    'src/client/runtime/PageView.tsx',
    'src/client/runtime/PageRenderer.tsx',
  ];
  it.each(roots)('%s reaches neither the pure-JS envelope nor the socket channel statically', (root) => {
    const reached = [...staticGraph(join(ROOT, root)).files].map(rel);
    expect(reached).toContain('src/client/api/web-envelope.ts');
    expect(
      reached.filter((f) => f === 'src/shared/envelope.ts' || f.startsWith('src/client/realtime/')),
    ).toEqual([]);
  });
});

describe('src/server', () => {
  it('has no import cycle between its modules', () => {
    const cycles = importCycles(join(ROOT, 'src/server')).map((c) => c.join(' → '));
    expect(cycles).toEqual([]);
  });
  it('the cycle finder sees a cycle where there is one', () => {
    // A fixture pair importing each other: guards the test above against passing vacuously.
    const cycles = importCycles(join(ROOT, 'tests/unit/fixtures/import-cycle'));
    expect(cycles.map((c) => c.map((f) => f.split('/').pop()).sort())).toEqual([['a.ts', 'b.ts']]);
  });
});
