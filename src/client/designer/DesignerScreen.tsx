/**
 * The designer route (/dev/design/:page): joins the page's co-editing document (the server starts it
 * from the saved draft, migrated and restored, so every editor gets the same content), and lays out
 * palette + layers, canvas, inspector; autosaves the draft. Drafts are builders' work, as for the
 * draft preview: a member without the right gets the no-authority state and never joins the document.
 * Rights come from the server: an expired project turns the designer read-only; a builder demoted or
 * removed while editing is told so.
 */
import { Alert, Button, Result, Spin, Tabs } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import * as Y from 'yjs';
import { loadPage } from '../../../widgets/index.ts';
import type { PageIssue } from '../../../widgets/validate.ts';
import { E } from '../../shared/errors.ts';
import { displayName } from '../../shared/validation.ts';
import { ApiError } from '../api/api-error.ts';
import { pagesApi } from '../api/pages.ts';
import { getToken } from '../api/storage.ts';
import { useSession } from '../stores/session.ts';
import { useWorkbench } from '../stores/workbench.ts';
import { type Autosave, startAutosave } from './autosave.ts';
import { Canvas } from './Canvas.tsx';
import { PresenceBar } from './collab/PresenceBar.tsx';
import { usePresence } from './collab/presence-store.ts';
import { CollabSession, type CollabStatus } from './collab/session.ts';
import { useCollab } from './collab/use-collab.ts';
import { clearDesignData } from './design-data.ts';
import { Inspector } from './Inspector.tsx';
import { Layers } from './Layers.tsx';
import { DocModel } from './model.ts';
import { Palette } from './Palette.tsx';
import { useShortcuts } from './shortcuts.ts';
import { useDesigner } from './store.ts';
import { Toolbar } from './Toolbar.tsx';
import './designer.css';

/** Codes of the draft call that mean "not yours to see": not a builder here, not a member. */
const DENIED: ReadonlySet<number> = new Set([E.FORBIDDEN.code, E.NOT_MEMBER.code]);

/** Statuses after which the session will not come back by itself. */
const FINAL: ReadonlySet<CollabStatus> = new Set(['signedOut', 'denied', 'removed']);
/** How long to wait for the first sync before offering a retry. */
const SYNC_TIMEOUT_MS = 20_000;

function firstSync(session: CollabSession): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => stop(new Error('timeout')), SYNC_TIMEOUT_MS);
    const unsubscribe = session.subscribe(() => {
      const s = session.snapshot();
      if (FINAL.has(s.status)) stop(new Error(s.status));
    });
    function stop(err?: Error) {
      clearTimeout(timer);
      unsubscribe();
      if (err) reject(err);
      else resolve();
    }
    void session.whenSynced().then(() => stop());
  });
}

/** Runs `run` once the browser is idle (or after a second at most). */
function whenIdle(run: () => void) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 1000 });
  else setTimeout(run, 0);
}

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
  const [denied, setDenied] = useState(false);
  const [session, setSession] = useState<CollabSession | null>(null);
  const autosave = useRef<Autosave | null>(null);
  /** Bumped by each open: a check of an earlier page's draft that finishes late is dropped. */
  const opened = useRef(0);
  const collab = useCollab(session);

  const open = useCallback(async () => {
    autosave.current?.stop();
    autosave.current = null;
    useDesigner.getState().setModel(null);
    useDesigner.getState().setReadOnly(false);
    // Bound tables on the canvas read their rows afresh for each page opened.
    clearDesignData();
    setError(null);
    setDenied(false);
    setSession((old) => {
      old?.destroy();
      return null;
    });
    let joined: CollabSession | null = null;
    const seq = ++opened.current;
    setIssues([]);
    try {
      // The saved draft's name and load notes; a refusal here is the no-authority state, and the
      // co-editing document (which the server would refuse too) is not even asked for.
      const draft = await pagesApi.get(project, pageId, { quiet: true }).catch((e: unknown) => {
        if (e instanceof ApiError && DENIED.has(e.code)) return null;
        throw e;
      });
      if (!draft) {
        setDenied(true);
        return;
      }
      setName(draft.name);
      const user = useSession.getState().user;
      joined = new CollabSession(new Y.Doc(), {
        project,
        page: pageId,
        token: getToken() ?? '',
        user: { id: user?._id ?? '', name: user ? displayName(user) : '' },
      });
      setSession(joined);
      await firstSync(joined);
      const m = new DocModel(joined.doc);
      useDesigner.getState().setModel(m, pageId);
      autosave.current = startAutosave(m, project, pageId);
      // What loading the saved draft repaired or marked (the banner): the whole page checked against
      // the kinds' schemas, compiled on first use. The server already restored the draft the canvas
      // shows, so this waits until the canvas has drawn and the browser is idle.
      const saved = draft.document;
      whenIdle(() => {
        if (opened.current === seq) setIssues(loadPage(saved).issues);
      });
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (msg === 'denied') {
        setSession((old) => {
          old?.destroy();
          return null;
        });
        setDenied(true);
        return;
      }
      setError(msg === 'timeout' || FINAL.has(msg as CollabStatus) ? t(`designer.collabFailed.${msg}`) : msg);
    }
  }, [project, pageId, t]);

  useEffect(() => {
    void open();
    const onLeave = () => void autosave.current?.flush();
    window.addEventListener('beforeunload', onLeave);
    return () => {
      window.removeEventListener('beforeunload', onLeave);
      const a = autosave.current;
      void a?.flush().finally(() => a.stop());
      useDesigner.getState().setModel(null);
      setSession((old) => {
        old?.destroy();
        return null;
      });
    };
  }, [open]);

  // The server's word on rights: read-only stops edits here and stops saving drafts.
  const readOnly = collab.readOnly || FINAL.has(collab.status);
  useEffect(() => {
    useDesigner.getState().setReadOnly(readOnly);
    if (readOnly) {
      autosave.current?.stop();
      autosave.current = null;
    }
  }, [readOnly]);

  // Others' selections, for the canvas outlines and the layers tree.
  useEffect(() => {
    usePresence.getState().setPeers(collab.peers);
  }, [collab.peers]);

  // Share this user's selection with the others.
  useEffect(() => {
    if (!session) return;
    session.setSelection([...useDesigner.getState().selection]);
    return useDesigner.subscribe((s, prev) => {
      if (s.selection !== prev.selection) session.setSelection([...s.selection]);
    });
  }, [session]);

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
  if (denied)
    return (
      <Result
        status="403"
        title={t('noAuth.title')}
        subTitle={t('designer.noDraftAccess')}
        data-testid="no-authority"
        extra={
          <Button type="primary">
            <Link to="/" replace>
              {t('shell.toHome')}
            </Link>
          </Button>
        }
      />
    );
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
        extra={<PresenceBar state={collab} />}
      />
      {FINAL.has(collab.status) ? (
        <Alert type="error" showIcon banner message={t(`designer.collabFailed.${collab.status}`)} />
      ) : null}
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
          <Canvas project={project} />
        </main>
        <aside className="dz-right">
          <Inspector project={project} />
        </aside>
      </div>
    </div>
  );
}
