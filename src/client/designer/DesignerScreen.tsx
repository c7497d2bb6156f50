/**
 * The designer route (/dev/design/:page): opens the draft (migrated and restored, broken widgets
 * marked), builds the Y.Doc, and lays out palette + layers, canvas, inspector; autosaves the draft.
 */
import { Alert, Button, Result, Spin, Tabs } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import * as Y from 'yjs';
import { loadPage } from '../../../widgets/index.ts';
import type { PageIssue } from '../../../widgets/validate.ts';
import { applyPageToDoc } from '../../shared/page-ydoc.ts';
import { designerPages } from '../api/designer-pages.ts';
import { useWorkbench } from '../stores/workbench.ts';
import { type Autosave, startAutosave } from './autosave.ts';
import { Canvas } from './Canvas.tsx';
import { Inspector } from './Inspector.tsx';
import { Layers } from './Layers.tsx';
import { DocModel } from './model.ts';
import { Palette } from './Palette.tsx';
import { useShortcuts } from './shortcuts.ts';
import { useDesigner } from './store.ts';
import { Toolbar } from './Toolbar.tsx';
import './designer.css';

export default function DesignerScreen() {
  const { t } = useTranslation();
  const { page: pageId = '' } = useParams();
  const [search] = useSearchParams();
  const storedProject = useWorkbench((s) => s.projectId);
  const project = search.get('project') ?? storedProject ?? '';
  const model = useDesigner((s) => s.model);
  const [name, setName] = useState('');
  const [issues, setIssues] = useState<PageIssue[]>([]);
  const [error, setError] = useState<string | null>(null);
  const autosave = useRef<Autosave | null>(null);

  const open = useCallback(async () => {
    autosave.current?.stop();
    useDesigner.getState().setModel(null);
    setError(null);
    try {
      const draft = await designerPages.draft(project, pageId);
      const { page, issues } = loadPage(draft.document);
      const doc = new Y.Doc();
      applyPageToDoc(doc, page);
      const m = new DocModel(doc);
      useDesigner.getState().setModel(m, pageId);
      autosave.current = startAutosave(m, project, pageId);
      setName(draft.name);
      setIssues(issues);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, [project, pageId]);

  useEffect(() => {
    void open();
    const onLeave = () => void autosave.current?.flush();
    window.addEventListener('beforeunload', onLeave);
    return () => {
      window.removeEventListener('beforeunload', onLeave);
      const a = autosave.current;
      void a?.flush().finally(() => a.stop());
      useDesigner.getState().setModel(null);
    };
  }, [open]);

  const onSaveKey = useCallback((e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      void autosave.current?.flush();
      return true;
    }
    return false;
  }, []);
  useShortcuts(onSaveKey);

  if (!project) return <Result status="info" title={t('wb.noProject')} />;
  if (error)
    return (
      <Result
        status="error"
        title={t('designer.openFailed')}
        subTitle={error}
        extra={<Button onClick={() => void open()}>{t('designer.retry')}</Button>}
      />
    );
  if (!model) return <Spin className="center-pad" data-testid="designer-loading" />;
  return (
    <div className="dz-screen" data-testid="designer">
      <Toolbar
        project={project}
        pageId={pageId}
        name={name}
        flush={() => autosave.current?.flush() ?? Promise.resolve()}
        reload={open}
      />
      {issues.length ? (
        <Alert
          type="warning"
          showIcon
          closable
          banner
          message={t('designer.loadIssues', { count: issues.length })}
          description={issues
            .slice(0, 5)
            .map((i) => `${i.path}: ${i.message}`)
            .join(' · ')}
        />
      ) : null}
      <div className="dz-body">
        <aside className="dz-left">
          <Tabs
            size="small"
            destroyOnHidden
            items={[
              { key: 'palette', label: t('designer.widgets'), children: <Palette /> },
              { key: 'layers', label: t('designer.layers'), children: <Layers /> },
            ]}
          />
        </aside>
        <main className="dz-center">
          <Canvas />
        </main>
        <aside className="dz-right">
          <Inspector />
        </aside>
      </div>
    </div>
  );
}
