import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE, blocks, cssFor, keepCssVars, ownerOf, splitAntdCss } from '../../scripts/vite-antd-css.ts';

const require = createRequire(import.meta.url);
const FOLDERS = new Set([
  'button',
  'input',
  'input-number',
  'select',
  'tree-select',
  'grid',
  'table',
  'tabs',
]);

describe('antd css split', () => {
  it('cuts a sheet into top-level blocks, strings and nesting respected', () => {
    const css = '.a{x:"}"}@media (max-width:1px){.b{y:1}.c{z:2}}@keyframes k{0%{o:0}to{o:1}}';
    expect(blocks(css)).toEqual([
      '.a{x:"}"}',
      '@media (max-width:1px){.b{y:1}.c{z:2}}',
      '@keyframes k{0%{o:0}to{o:1}}',
    ]);
  });

  it('gives each rule to the component folder of its first antd class, longest prefix first', () => {
    expect(ownerOf('.ant-btn-primary{}', FOLDERS)).toBe('button');
    expect(ownerOf('.ant-input-number-affix{}', FOLDERS)).toBe('input-number');
    expect(ownerOf('.ant-input-affix-wrapper .ant-btn{}', FOLDERS)).toBe('input');
    expect(ownerOf('.ant-select-tree-node{}', FOLDERS)).toBe('tree-select');
    expect(ownerOf('.ant-select-dropdown{}', FOLDERS)).toBe('select');
    expect(ownerOf('.ant-table-wrapper{}', FOLDERS)).toBe('table');
    expect(ownerOf('.ant-tabs-nav{}', FOLDERS)).toBe('tabs');
    expect(ownerOf('@media (max-width:575px){.ant-col-xs-1{}}', FOLDERS)).toBe('grid');
    // Not a prefix match: `.ant-tablet` is no table rule, `.ant-wave` belongs to no folder.
    expect(ownerOf('.ant-tablet{}', FOLDERS)).toBe(BASE);
    expect(ownerOf('.ant-wave{}', FOLDERS)).toBe(BASE);
    expect(ownerOf('@keyframes antZoomIn{0%{}}', FOLDERS)).toBe(BASE);
    expect(ownerOf('.anticon{}', FOLDERS)).toBe(BASE);
    // Build-time theme scopes are dropped (antd registers the theme's variables at run time).
    expect(ownerOf('.css-var-_R_0_.ant-btn{--ant-btn-x:1}', FOLDERS)).toBeNull();
  });

  it('splits the installed antd.css with nothing lost but the build-time theme scopes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'antd-css-'));
    try {
      const files = splitAntdCss(dir);
      for (const k of ['button', 'table', 'date-picker', 'select', 'grid', 'modal', BASE])
        expect(files.has(k), k).toBe(true);
      const all = [...files.values()].map((f) => fs.readFileSync(f, 'utf8')).join('');
      expect(all).toContain('.ant-btn{');
      expect(all).toContain('.ant-picker-dropdown');
      expect(all).not.toContain('.css-var-_R_');
      for (const f of files.values())
        expect(fs.readFileSync(f, 'utf8').startsWith('@layer antd{')).toBe(true);
      // Every class rule of the original sheet is somewhere (sampled by selector start).
      const original = fs.readFileSync(require.resolve('antd/dist/antd.css'), 'utf8');
      const kept = blocks(original).filter(
        (b) => !b.startsWith('.css-var-_R_') && !b.startsWith('.data-ant'),
      );
      for (const b of kept.filter((_, i) => i % 97 === 0)) expect(all).toContain(b);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('attaches the CSS of the style hooks a component module imports, not to style modules', () => {
    const files = new Map([
      ['select', '/c/select.css'],
      ['cascader', '/c/cascader.css'],
      ['date-picker', '/c/date-picker.css'],
      ['grid', '/c/grid.css'],
      [BASE, '/c/base.css'],
    ]);
    const es = '/n/node_modules/antd/es';
    expect(
      cssFor(
        "import useSelectStyle from '../select/style';\nimport useStyle from './style';",
        `${es}/cascader/index.js`,
        files,
      ),
    ).toEqual(['/c/select.css', '/c/cascader.css']);
    expect(
      cssFor(
        "import useStyle from '../style';",
        `${es}/date-picker/generatePicker/generateSinglePicker.js`,
        files,
      ),
    ).toEqual(['/c/date-picker.css']);
    // modal's style borrows a helper from grid's: no grid CSS for modals.
    expect(
      cssFor("import { getMediaSize } from '../../grid/style';", `${es}/modal/style/index.js`, files),
    ).toEqual([]);
    expect(cssFor('export {};', `${es}/config-provider/index.js`, files)).toEqual(['/c/base.css']);
    expect(cssFor("import x from './style';", '/n/src/client/style.ts', files)).toEqual([]);
  });
});

describe('antd css variables', () => {
  it('keeps registered variable styles instead of removing them when the last instance unmounts', () => {
    const file = require.resolve('@ant-design/cssinjs/es/hooks/useCSSVarRegister.js');
    const out = keepCssVars(fs.readFileSync(file, 'utf8'));
    expect(out).toContain('if (false) {\n      removeCSS(styleId');
    expect(out).toContain('updateCSS(cssVarsStr, styleId');
    expect(() => keepCssVars('export {}')).toThrow(/changed/);
  });
});
