/**
 * Vite plugin (client build): the widgets' props schemas leave the end-user page path.
 *
 * The runtime imports the widget registry (widgets/registry.ts) for each kind's behaviour — its view
 * loader, data role, events, form behaviour — and so, through each `widgets/<kind>/index.ts`, every
 * kind's schema.json (~48 KB of JSON) landed in the page path's chunk, though the runtime reads no
 * schema and no defaults. Here each kind module's
 *
 *     import schema from './schema.json' with { type: 'json' };
 *
 * becomes `const schema = laterSchema('<kind>')` (widgets/define.ts: `schema` and `defaults` read
 * through getters), and widgets/index.ts — the full registry with the validator and page loader,
 * imported by the designer and the workbench, never by the runtime — imports every kind's
 * schema.json and attaches them when it loads. The server and the tests (no build) import the JSON
 * as written. A kind whose folder name is not its kind, or whose module imports its schema some
 * other way, keeps its schema inline (the build still works, only bigger).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export const SCHEMA_IMPORT = "import schema from './schema.json' with { type: 'json' };";

/** The kind module's code with its schema import replaced, or null when it has none to replace. */
export function deferSchema(code: string, kind: string): string | null {
  if (!code.includes(SCHEMA_IMPORT) || !code.includes(`kind: '${kind}'`)) return null;
  return code.replace(
    SCHEMA_IMPORT,
    `import { laterSchema as __laterSchema } from '../define.ts';\nconst schema = __laterSchema(${JSON.stringify(kind)});`,
  );
}

/** widgets/index.ts's code with the kinds' schemas imported and attached. */
export function attachAll(code: string, kinds: readonly string[]): string {
  const imports = kinds.map((k, i) => `import __schema${i} from './${k}/schema.json' with { type: 'json' };`);
  const table = kinds.map((k, i) => `  ${JSON.stringify(k)}: __schema${i},`);
  return [
    "import { attachSchemas as __attachSchemas } from './define.ts';",
    ...imports,
    '__attachSchemas({',
    ...table,
    '});',
    code,
  ].join('\n');
}

/** Kind folders of `widgetsDir` whose module imports its schema as `deferSchema` expects. */
export function deferredKinds(widgetsDir: string): string[] {
  return fs
    .readdirSync(widgetsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((k) => {
      const index = path.join(widgetsDir, k, 'index.ts');
      return (
        fs.existsSync(path.join(widgetsDir, k, 'schema.json')) &&
        fs.existsSync(index) &&
        deferSchema(fs.readFileSync(index, 'utf8'), k) !== null
      );
    })
    .sort();
}

export function widgetSchemas(widgetsDir: string): Plugin {
  const dir = path.resolve(widgetsDir);
  const registry = path.join(dir, 'index.ts');
  let kinds: string[] = [];
  return {
    name: 'lc:widget-schemas',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      kinds = deferredKinds(dir);
    },
    transform(code, id) {
      const file = path.resolve(id.split('?')[0]!);
      if (file === registry) return { code: attachAll(code, kinds), map: null };
      if (path.dirname(path.dirname(file)) !== dir || path.basename(file) !== 'index.ts') return null;
      const kind = path.basename(path.dirname(file));
      if (!kinds.includes(kind)) return null;
      const out = deferSchema(code, kind);
      if (out === null) this.error(`widgets/${kind}/index.ts changed while building: build again`);
      return { code: out, map: null };
    },
  };
}
