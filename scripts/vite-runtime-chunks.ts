/**
 * Fewer, larger chunks on the end-user page path.
 *
 * Left alone, the bundler splits the code shared between lazy screens into one chunk per sharing
 * pattern: a cold load of a page route fetched ~150 files. Browsers open six HTTP/1.1 connections
 * per host, so the page JSON and the sign-in check queued behind that storm, and each file paid a
 * round trip and a preload link. Two groups fix that:
 *
 * - `boot`: every module the entry needs at start (bundler tag `$initial`) in one file: the entry
 *   holds the same code as before (its size goal is unchanged), in one request instead of ~55.
 * - `runtime`: what a published page needs beyond the entry — the root layout, the page screen, the
 *   renderer and the render code of the everyday kinds — found after the module graph is built by
 *   walking the static imports from those roots. Other lazy code (designer, workbench, heavy kinds)
 *   keeps the bundler's automatic chunks, and loads this file only for what it shares with it.
 *
 * The walk follows imported *names* through re-exporting modules (`import { Button } from 'antd'`
 * reaches antd's button, not the 70 other components antd's index re-exports), so the runtime
 * chunk holds what the page path uses, not whole libraries.
 */
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';
import type { Plugin } from 'vite';

type Group = {
  name: string;
  test?: (id: string) => boolean;
  tags?: '$initial'[];
  priority?: number;
  includeDependenciesRecursively?: boolean;
};

export interface RuntimeChunks {
  plugin: Plugin;
  /** For `build.rolldownOptions.output.codeSplitting`. */
  codeSplitting: { groups: Group[] };
}

/** Written next to index.html: the page path's files beyond the entry (see `PagePreload`). */
export const PAGE_PRELOAD_FILE = 'page-preload.json';

/** Files (relative to the client folder) a route that draws pages needs beyond the entry. */
export interface PagePreload {
  js: string[];
  css: string[];
}

/** Every name (a namespace import, `export *` of a whole module, a side-effect import). */
export const ALL = '*';

/** What one module imports and re-exports, by source specifier. */
export interface ModuleShape {
  /** source → imported names (ALL: the whole module; empty: only its side effects). */
  imports: Map<string, Set<string>>;
  /** exported name → [source, imported name] for `export { a as b } from`. */
  reexports: Map<string, [string, string]>;
  /** sources of `export * from`. */
  stars: string[];
  /** names the module declares itself. */
  locals: Set<string>;
}

type Node = { type: string; [k: string]: unknown };
const nameOf = (n: unknown): string => {
  const x = n as { name?: string; value?: string };
  return x.name ?? x.value ?? '';
};

/** Reads a module's imports and exports from its code. */
export function shapeOf(code: string, file = 'x.js'): ModuleShape {
  const shape: ModuleShape = { imports: new Map(), reexports: new Map(), stars: [], locals: new Set() };
  const need = (source: string, name?: string) => {
    const set = shape.imports.get(source) ?? new Set<string>();
    shape.imports.set(source, set);
    if (name) set.add(name);
  };
  const program = parseAst(code, { sourceType: 'module' }, file) as unknown as { body: Node[] };
  for (const node of program.body) {
    const source = (node.source as { value?: string } | null | undefined)?.value;
    if (node.type === 'ImportDeclaration' && source) {
      need(source);
      for (const s of (node.specifiers as Node[]) ?? []) {
        if (s.type === 'ImportDefaultSpecifier') need(source, 'default');
        else if (s.type === 'ImportNamespaceSpecifier') need(source, ALL);
        else need(source, nameOf(s.imported));
      }
    } else if (node.type === 'ExportAllDeclaration' && source) {
      if (node.exported) shape.reexports.set(nameOf(node.exported), [source, ALL]);
      else shape.stars.push(source);
    } else if (node.type === 'ExportNamedDeclaration' && source) {
      for (const s of (node.specifiers as Node[]) ?? [])
        shape.reexports.set(nameOf(s.exported), [source, nameOf(s.local)]);
    } else if (node.type === 'ExportNamedDeclaration' || node.type === 'ExportDefaultDeclaration') {
      if (node.type === 'ExportDefaultDeclaration') {
        shape.locals.add('default');
        continue;
      }
      const decl = node.declaration as Node | null;
      const id = decl?.id as Node | undefined;
      if (id) shape.locals.add(nameOf(id));
      for (const d of (decl?.declarations as Node[]) ?? []) shape.locals.add(nameOf(d.id));
      for (const s of (node.specifiers as Node[]) ?? []) shape.locals.add(nameOf(s.exported));
    }
  }
  return shape;
}

/**
 * The modules reached from `roots` by static imports, following only the names each importer uses
 * through re-exports. `shape(id)` answers a module's shape (null: not in the build), `resolve`
 * maps a specifier of a module to a module id.
 */
export function usedClosure(
  roots: readonly string[],
  shape: (id: string) => ModuleShape | null,
  resolve: (source: string, importer: string) => string | null,
): Set<string> {
  const seen = new Map<string, Set<string>>();
  const out = new Set<string>();
  const stack: [string, Set<string>][] = roots.map((r) => [r, new Set([ALL])]);
  while (stack.length) {
    const [id, names] = stack.pop()!;
    const s = shape(id);
    if (!s) continue;
    const first = !seen.has(id);
    const had = seen.get(id) ?? new Set<string>();
    seen.set(id, had);
    if (had.has(ALL)) continue;
    const fresh = [...names].filter((n) => !had.has(n));
    if (!first && fresh.length === 0) continue;
    for (const n of fresh) had.add(n);
    // A module only passed through (every asked name re-exported from elsewhere, e.g. a library's
    // index) adds no code of its own: leave it out, or its other re-exports would come along.
    const ownCode = fresh.some((n) => n === ALL || s.locals.has(n));
    if (ownCode || (first && names.size === 0)) out.add(id);
    const go = (source: string, want: Set<string>) => {
      const target = resolve(source, id);
      if (target) stack.push([target, want]);
    };
    // The module's own imports run whenever it is used.
    if (first) for (const [source, want] of s.imports) go(source, want);
    // Re-exports: only the asked names (all of them for a namespace import).
    const all = fresh.includes(ALL);
    for (const [exported, [source, imported]] of s.reexports)
      if (all || fresh.includes(exported)) go(source, new Set([imported]));
    const unresolved = all ? [ALL] : fresh.filter((n) => !s.locals.has(n) && !s.reexports.has(n));
    if (unresolved.length) for (const source of s.stars) go(source, new Set(unresolved));
  }
  return out;
}

/**
 * `roots`: files (relative to `base`) whose used imports make up the runtime chunk; modules of the
 * entry's static graph stay in the boot chunk.
 */
export function runtimeChunks(base: string, roots: readonly string[]): RuntimeChunks {
  const runtime = new Set<string>();
  const plugin: Plugin = {
    name: 'lc-runtime-chunks',
    apply: 'build',
    async buildEnd(error) {
      if (error) return;
      runtime.clear();
      const ids = [...this.getModuleIds()];
      const shapes = new Map<string, ModuleShape | null>();
      const resolved = new Map<string, string | null>();
      const codeOf = (id: string) => this.getModuleInfo(id)?.code ?? null;
      // Resolve every specifier up front (resolution is async, the walk is not).
      for (const id of ids) {
        const code = codeOf(id);
        if (code === null) continue;
        let s: ModuleShape;
        try {
          s = shapeOf(code, id.replace(/\?.*$/, '').replace(/\.(json|css)$/, '.js'));
        } catch {
          continue;
        }
        shapes.set(id, s);
        const sources = new Set([
          ...s.imports.keys(),
          ...s.stars,
          ...[...s.reexports.values()].map((r) => r[0]),
        ]);
        for (const source of sources) {
          const r = await this.resolve(source, id);
          resolved.set(`${id}\0${source}`, r && !r.external ? r.id : null);
        }
      }
      const used = usedClosure(
        roots.map((f) => path.resolve(base, f)),
        (id) => shapes.get(id) ?? null,
        (source, importer) => resolved.get(`${importer}\0${source}`) ?? null,
      );
      for (const id of used) runtime.add(id);
      if (runtime.size === 0) this.warn('runtime chunk: none of its roots is in the build');
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
      const page = chunks.find((c) => c.name === 'runtime' && !c.isEntry);
      const entry = chunks.find((c) => c.isEntry);
      if (!page || !entry) return;
      // A lazily loaded module of the page path must load as the runtime chunk itself. The bundler
      // gives one a file of its own that only re-exports from that chunk when the entry's graph has
      // a top-level await: the route then waits for an extra request no preload hint covers (15 of
      // them, queued ahead of the page JSON on a cold load, the last time it happened).
      const facades = chunks.filter(
        (c) => c !== page && c.isDynamicEntry && c.facadeModuleId && runtime.has(c.facadeModuleId),
      );
      if (facades.length)
        this.error(
          `runtime chunk: ${facades.length} page-path module(s) load through a re-export file of their own (${facades
            .slice(0, 3)
            .map((c) => c.fileName)
            .join(', ')}…); is there a top-level await in the entry's module graph?`,
        );
      // The runtime chunk and what it imports beyond the entry's own files: a server may hint them
      // (modulepreload) on routes that draw pages, so they load while the entry runs.
      const loaded = new Set([entry.fileName, ...entry.imports]);
      const preload: PagePreload = {
        js: [page.fileName, ...page.imports.filter((f) => !loaded.has(f))],
        css: [...(page.viteMetadata?.importedCss ?? [])],
      };
      this.emitFile({ type: 'asset', fileName: PAGE_PRELOAD_FILE, source: JSON.stringify(preload) });
    },
  };
  return {
    plugin,
    codeSplitting: {
      groups: [
        { name: 'boot', tags: ['$initial'], priority: 2 },
        {
          name: 'runtime',
          test: (id) => runtime.has(id),
          priority: 1,
          // The walk already took the used dependencies; all of them would bring whole libraries.
          includeDependenciesRecursively: false,
        },
      ],
    },
  };
}
