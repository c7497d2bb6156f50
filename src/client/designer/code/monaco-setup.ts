/**
 * Monaco from the local `monaco-editor` package (never the CDN): its workers through Vite's `?worker`
 * imports (0.57's exports map has no `esm/vs/` prefix), then `loader.config({ monaco })` so
 * `@monaco-editor/react` uses this copy. Imported only by the lazily loaded editor module.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TsWorker from 'monaco-editor/language/typescript/ts.worker?worker';
import { SCRIPT_API_DTS } from '../../../shared/script-api.ts';

let ready = false;

export function setupMonaco(): typeof monaco {
  if (ready) return monaco;
  ready = true;
  globalThis.MonacoEnvironment = {
    getWorker: (_id, label) =>
      label === 'typescript' || label === 'javascript' ? new TsWorker() : new EditorWorker(),
  };
  const js = monaco.typescript.javascriptDefaults;
  js.setCompilerOptions({
    target: monaco.typescript.ScriptTarget.ES2020,
    allowNonTsExtensions: true,
    checkJs: true,
    noLib: false,
    lib: ['es2020'],
  });
  js.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false });
  js.addExtraLib(SCRIPT_API_DTS, 'file:///script-api.d.ts');
  loader.config({ monaco });
  return monaco;
}
