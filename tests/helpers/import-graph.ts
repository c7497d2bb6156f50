/**
 * Import walks for the boundary tests: what a module reaches through static imports (relative paths
 * followed, `import type` and lazy `import()` skipped), and every module specifier a file names.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

const STATIC = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm;
const ANY = /(?:^\s*(?:import|export)\s+(?:[^'";]*?\sfrom\s+)?|\bimport\(\s*)'([^']+)'/gm;

/** Files and packages reached from `entry` through static value imports. */
export function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
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

/** Every module a file names: static, type-only and lazy imports, relative ones resolved. */
export function namedImports(file: string): { spec: string; target?: string }[] {
  return [...readFileSync(file, 'utf8').matchAll(ANY)].map((m) => {
    const spec = m[1]!;
    return spec.startsWith('.') ? { spec, target: resolve(dirname(file), spec) } : { spec };
  });
}

/** The .ts/.tsx sources under a folder (tests left out). */
export function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourcesUnder(p));
    else if (/\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/**
 * Cycles among the files under `dir` through static value imports (`import type` is erased and
 * cannot cycle at run time): each cycle as the list of files around it, relative to ROOT.
 */
export function importCycles(dir: string): string[][] {
  const files = sourcesUnder(dir);
  const inside = new Set(files);
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const targets = [...readFileSync(f, 'utf8').matchAll(STATIC)]
      .map((m) => m[1]!)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(dirname(f), spec))
      .filter((t) => inside.has(t));
    edges.set(f, targets);
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    path.push(f);
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === 'open') cycles.push(path.slice(path.indexOf(t)).map((p) => relative(ROOT, p)));
      else if (!state.has(t)) visit(t);
    }
    path.pop();
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return cycles;
}
