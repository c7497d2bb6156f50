/** The Monaco code editor (lazy chunk): JavaScript with the script API declared, so `api.` completes. */
import Editor from '@monaco-editor/react';
import { setupMonaco } from './monaco-setup.ts';

setupMonaco();

export interface MonacoEditorProps {
  /**
   * The text when the editor mounts. The editor then owns its text (a controlled value lags behind
   * fast typing on a busy machine and would overwrite keystrokes); remount (key) to load other text.
   */
  value: string;
  onChange: (code: string) => void;
  height?: number | string;
  readOnly?: boolean;
  /** Model path; the model is disposed when the editor unmounts, so a path may be reused afterwards. */
  path?: string;
}

export default function MonacoEditor(props: MonacoEditorProps) {
  return (
    <div className="code-editor" data-testid="code-editor">
      <Editor
        height={props.height ?? 360}
        language="javascript"
        path={props.path ?? 'file:///code.js'}
        defaultValue={props.value}
        onChange={(v) => props.onChange(v ?? '')}
        options={{
          readOnly: props.readOnly,
          minimap: { enabled: false },
          fontSize: 13,
          tabSize: 2,
          scrollBeyondLastLine: false,
          automaticLayout: true,
          quickSuggestions: true,
          suggestOnTriggerCharacters: true,
        }}
      />
    </div>
  );
}
