/** The Monaco code editor (lazy chunk): JavaScript with the script API declared, so `api.` completes. */
import Editor from '@monaco-editor/react';
import { setupMonaco } from './monaco-setup.ts';

setupMonaco();

export interface MonacoEditorProps {
  value: string;
  onChange: (code: string) => void;
  height?: number | string;
  readOnly?: boolean;
  /** Distinct model path per document, so two editors keep their own undo stacks. */
  path?: string;
}

export default function MonacoEditor(props: MonacoEditorProps) {
  return (
    <div className="code-editor" data-testid="code-editor">
      <Editor
        height={props.height ?? 360}
        language="javascript"
        path={props.path ?? 'file:///code.js'}
        value={props.value}
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
