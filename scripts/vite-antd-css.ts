/**
 * Vite plugin: antd's styles as static CSS, split per component and loaded with the code that uses it.
 *
 * antd normally generates its CSS at run time (CSS-in-JS): the first render of each component kind
 * builds and hashes its styles, and every instance runs the style hooks on each render. On a cold
 * load of a page with many widgets that was about a fifth of all main-thread work. antd's
 * zero-runtime mode (`theme.zeroRuntime`, see shell/Providers.tsx) skips it and expects the prebuilt
 * `antd/dist/antd.css` instead — 1 MB (109 KB gzip) for every component, too much for the entry.
 *
 * So at build start the prebuilt sheet is cut into one file per component folder, by the first
 * `.ant-<prefix>` class of each rule (longest known prefix wins; what matches no component — the
 * reset, icons, motion keyframes — goes to a shared base file). Each component's style module
 * (`antd/es/<component>/style/index.js`, imported by the component whatever the mode) then imports
 * its file, so Vite ships the CSS with the chunk that uses the component and loads it before that
 * chunk runs. Rules scoped to the build-time theme class (`.css-var-_R_…`) are dropped: antd still
 * registers the theme's CSS variables at run time, under its own class. Everything sits in the
 * `antd` cascade layer, so the app's own stylesheets win over antd whatever order chunks load in
 * (as they did when antd injected its styles first).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** Class prefixes whose component folder is not named after them. */
const OWNER: Record<string, string> = {
  btn: 'button',
  picker: 'date-picker',
  'picker-calendar': 'calendar',
  'float-btn': 'float-button',
  row: 'grid',
  col: 'grid',
  ribbon: 'badge',
  'scroll-number': 'badge',
  'select-tree': 'tree-select',
  otp: 'input',
  qrcode: 'qr-code',
};

export const BASE = '_base';

/** Top-level blocks of a stylesheet (rules and at-rules with their bodies); strings are respected. */
export function blocks(css: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let quote = '';
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      const b = css.slice(start, i + 1).trim();
      if (b) out.push(b);
      start = i + 1;
    }
  }
  return out;
}

/** The component folder a block belongs to, BASE for shared rules, null to drop it. */
export function ownerOf(block: string, folders: ReadonlySet<string>): string | null {
  const head = block.slice(0, block.indexOf('{'));
  // At-rules: the first selector inside decides (@media of a grid column → grid).
  const sel = head.startsWith('@') ? block.slice(block.indexOf('{') + 1) : head;
  const first = sel.trimStart();
  if (first.startsWith('.css-var-_R_') || first.startsWith('.data-ant-cssinjs-cache-path')) return null;
  if (head.startsWith('@keyframes')) return BASE;
  const m = /\.ant-([a-z]+(?:-[a-z]+)*)/.exec(
    sel.slice(0, sel.indexOf('{') >= 0 ? sel.indexOf('{') : undefined),
  );
  if (!m) return BASE;
  const name = m[1]!;
  let best: string | null = null;
  for (const prefix of [...folders, ...Object.keys(OWNER)]) {
    if ((name === prefix || name.startsWith(`${prefix}-`)) && (!best || prefix.length > best.length))
      best = prefix;
  }
  const owner = best ? (OWNER[best] ?? best) : null;
  return owner && folders.has(owner) ? owner : BASE;
}

/** Splits antd.css into files by component folder; returns folder → file. */
export function splitAntdCss(outDir: string): Map<string, string> {
  const antdEs = path.dirname(require.resolve('antd/es/index.js'));
  const folders = new Set(
    fs.readdirSync(antdEs).filter((d) => fs.existsSync(path.join(antdEs, d, 'style/index.js'))),
  );
  const css = fs.readFileSync(require.resolve('antd/dist/antd.css'), 'utf8');
  const groups = new Map<string, string[]>();
  for (const b of blocks(css)) {
    const owner = ownerOf(b, folders);
    if (owner === null) continue;
    const list = groups.get(owner) ?? [];
    list.push(b);
    groups.set(owner, list);
  }
  fs.mkdirSync(outDir, { recursive: true });
  const files = new Map<string, string>();
  for (const [owner, list] of groups) {
    const file = path.join(outDir, `${owner}.css`);
    const text = `@layer antd{${list.join('')}}\n`;
    // Unchanged files keep their mtime (watchers and caches stay quiet).
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
    files.set(owner, file);
  }
  return files;
}

const CSS_VAR_REGISTER = /[\\/]@ant-design[\\/]cssinjs[\\/]es[\\/]hooks[\\/]useCSSVarRegister\.js$/;
const CSS_VAR_REMOVE = '    if (isClientSide) {\n      removeCSS(styleId, {';

/**
 * antd still registers each component's CSS variables at run time (a small <style> per component
 * kind), and removes it when the last instance unmounts: on every screen change a few styles went
 * and came back, each removal restyling the whole document (120 ms seen leaving the home screen).
 * Kept once registered instead, as antd's own component styles are (one per kind, bounded).
 */
export function keepCssVars(code: string): string {
  if (!code.includes(CSS_VAR_REMOVE))
    throw new Error('@ant-design/cssinjs useCSSVarRegister.js changed: review scripts/vite-antd-css.ts');
  return code.replace(CSS_VAR_REMOVE, '    if (false) {\n      removeCSS(styleId, {');
}

const ANTD_ES = /[\\/]antd[\\/]es[\\/]/;
const STYLE_IMPORT = /\bfrom\s*['"](\.{1,2}\/[^'"]*?\bstyle(?:\/index(?:\.js)?)?)['"]/g;
const STYLE_FOLDER = /[\\/]antd[\\/]es[\\/]([a-z-]+)[\\/]style$/;
const CONFIG_PROVIDER = /[\\/]antd[\\/]es[\\/]config-provider[\\/]index\.js$/;

/**
 * The CSS files a module of antd needs: those of the components whose style hook it imports (a
 * component imports its own `./style`, some share another's: cascader → select). Style modules
 * importing each other for helpers don't count (modal's style borrows grid's media sizes; a modal
 * doesn't draw a grid). The config provider, in every app, brings the shared base.
 */
export function cssFor(code: string, id: string, files: ReadonlyMap<string, string>): string[] {
  const file = id.split('?')[0]!;
  if (!ANTD_ES.test(file) || /[\\/]style[\\/]/.test(file)) return [];
  const out = new Set<string>();
  if (CONFIG_PROVIDER.test(file) && files.has(BASE)) out.add(files.get(BASE)!);
  for (const m of code.matchAll(STYLE_IMPORT)) {
    const target = path.resolve(path.dirname(file), m[1]!.replace(/\/index(?:\.js)?$/, ''));
    const folder = STYLE_FOLDER.exec(target)?.[1];
    const css = folder ? files.get(folder) : undefined;
    if (css) out.add(css);
  }
  return [...out];
}

export function antdCss(options: { outDir?: string } = {}): Plugin {
  let files = new Map<string, string>();
  return {
    name: 'lc:antd-css',
    enforce: 'pre',
    buildStart() {
      const outDir =
        options.outDir ?? path.join(path.dirname(require.resolve('antd/package.json')), '../.lc-antd-css');
      files = splitAntdCss(outDir);
    },
    transform(code, id) {
      if (CSS_VAR_REGISTER.test(id.split('?')[0]!)) return { code: keepCssVars(code), map: null };
      const css = cssFor(code, id, files);
      if (!css.length) return null;
      return { code: `${css.map((f) => `import ${JSON.stringify(f)};`).join('\n')}\n${code}`, map: null };
    },
  };
}
