/**
 * Code editing of the designer: the lazily loaded Monaco editor, a modal for code commands (runCode
 * actions), and the project's setup script editor (saved as the project's custom `code`).
 */
import { Alert, Button, Modal, Space, Spin, Tag } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { panelApi } from '../panel/api.ts';
import type { MonacoEditorProps } from './MonacoEditor.tsx';

const LazyMonaco = lazy(() => import('./MonacoEditor.tsx'));

/** Monaco, fetched the first time one is shown. */
export function CodeEditor(props: MonacoEditorProps) {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <div className="code-loading">
          <Spin /> {t('code.loading')}
        </div>
      }
    >
      <LazyMonaco {...props} />
    </Suspense>
  );
}

/** Edits a code command in a modal; OK hands the code back. */
export function CodeEditorModal(props: {
  open: boolean;
  code: string;
  title?: string;
  onOk: (code: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState(props.code);
  useEffect(() => {
    if (props.open) setCode(props.code);
  }, [props.open, props.code]);
  return (
    <Modal
      open={props.open}
      title={props.title ?? t('code.commandTitle')}
      width={860}
      onOk={() => props.onOk(code)}
      onCancel={props.onCancel}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
      // Escape belongs to the editor (closing suggestions), not to the dialog.
      keyboard={false}
      maskClosable={false}
      data-testid="code-modal"
    >
      <p className="panel-muted">{t('code.apiHint')}</p>
      <CodeEditor value={code} onChange={setCode} path="file:///command.js" />
    </Modal>
  );
}

type SaveState = 'loading' | 'clean' | 'dirty' | 'saving' | 'saved' | 'error';

/** The project's setup script: loads `custom.code`, saves it through the project custom API. */
export function SetupScriptEditor(props: { project: string; height?: number }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [state, setState] = useState<SaveState>('loading');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setState('loading');
    panelApi.setupScript(props.project).then(
      (c) => {
        if (!live) return;
        setCode(c);
        setState('clean');
      },
      (e: unknown) => {
        if (!live) return;
        setError(e instanceof Error ? e.message : String(e));
        setState('error');
      },
    );
    return () => {
      live = false;
    };
  }, [props.project]);

  async function save() {
    setState('saving');
    setError(null);
    try {
      await panelApi.saveSetupScript(props.project, code);
      setState('saved');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setState('error');
    }
  }

  const tag =
    state === 'dirty' ? (
      <Tag color="orange">{t('code.unsaved')}</Tag>
    ) : state === 'saved' ? (
      <Tag color="green">{t('code.saved')}</Tag>
    ) : state === 'saving' ? (
      <Tag color="blue">{t('code.saving')}</Tag>
    ) : null;

  return (
    <div className="setup-script" data-testid="setup-script">
      <Space className="setup-script-bar">
        <strong>{t('code.setupTitle')}</strong>
        {tag}
        <Button
          type="primary"
          size="small"
          onClick={save}
          disabled={state === 'loading' || state === 'saving' || state === 'clean' || state === 'saved'}
          data-testid="setup-save"
        >
          {t('common.save')}
        </Button>
      </Space>
      {error ? <Alert type="error" showIcon message={error} /> : null}
      {state === 'loading' ? (
        <Spin />
      ) : (
        <CodeEditor
          value={code}
          height={props.height ?? 320}
          path={`file:///setup-${props.project}.js`}
          onChange={(c) => {
            setCode(c);
            setState('dirty');
          }}
        />
      )}
    </div>
  );
}
