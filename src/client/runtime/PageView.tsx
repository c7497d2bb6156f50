/**
 * A page fetched and rendered: the published version (`GET /api/app/page/{project}/{id}`) or, for
 * builders in /dev/preview, the draft (`?preview=1`). Builds the action host that carries out the
 * page's actions (navigation, the modal stack, notices, program calls, forms, the sandbox) and the
 * modal stack it opens pages into.
 */
import { App, Modal, Result, Spin } from 'antd';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { getWidget } from '../../../widgets/registry.ts';
import { translateDocument } from '../../shared/admin/widget-texts.ts';
import { MODAL_Z_INDEX } from '../../shared/constants.ts';
import type { ExprScope } from '../../shared/expr/index.ts';
import type { WidgetInstance } from '../../shared/page-document.ts';
import { mergePrintOption, pagePrintOption } from '../../shared/print.ts';
import { obj, str } from '../../shared/props.ts';
import { isSafeUrl } from '../../shared/sanitize.ts';
import { ApiError } from '../api/api-error.ts';
import { appInitOnce } from '../api/shell.ts';
import { currentLang } from '../i18n/index.ts';
import { PrintHost } from '../print/PrintHost.tsx';
import { lastPrintOption } from '../print/print-settings.ts';
import { usePrints } from '../print/print-store.ts';
import { useSession } from '../stores/session.ts';
import { ActionError, type ActionHost, snapModalWidth } from './actions.ts';
import { entityMeta, saveRecord } from './data-source.ts';
import { clearDraft } from './drafts.ts';
import type { PageMode } from './geometry.ts';
import { installBackHandler, useModals } from './modal-stack.ts';
import { notify, setNoticeApi } from './notices.ts';
import { PageRenderer } from './PageRenderer.tsx';
import { type AppPageAnswer, fetchPage, takeArrived } from './page-prefetch.ts';
import { bumpReload, type PageStore, setStateVar, setWidgetValue } from './page-store.ts';
import { kindsLoaded, preloadKinds } from './preload.ts';
import { useProjectTexts } from './project-texts.ts';
import { sandbox } from './sandbox.ts';
import { createScriptHost } from './script-host.ts';

export type AppPage = AppPageAnswer;
export { fetchPage };

/** Codes that mean "you may not see this": the shell's /no-authority route. */
export const NO_ACCESS_CODES = new Set([1102, 1201]);

/** Where a page opens as a route: standalone app pages stay standalone. */
export function pageHref(
  project: string,
  page: string,
  params: Record<string, unknown>,
  standalone: boolean,
) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null) qs.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  const q = qs.toString();
  const path = standalone ? `/app/${project}/${page}` : `/page/${page}`;
  return q ? `${path}?${q}` : path;
}

const setupStarted = new Set<string>();

interface ViewProps {
  project: string;
  pageId: string;
  mode: PageMode;
  params?: Record<string, unknown>;
  preview?: boolean;
  /** Standalone /app/… pages open further pages as /app/… too. */
  standalone?: boolean;
  /** Key of the modal this page is shown in. */
  modalKey?: number;
  /** Read through the displays call (the /display/{id} screen). */
  display?: boolean;
}

export function PageView(props: ViewProps) {
  const { project, pageId, mode, preview = false } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const [page, setPage] = useState<AppPage | null>(null);
  const [error, setError] = useState<{ code: number; msg: string } | null>(null);
  const skipFetch = useRef(false);
  // A page whose JSON and kinds are already here (the route loader fetched them) draws from a layout
  // effect, not in the first render: a navigation renders its new screen in a transition, which
  // React slices into 5 ms pieces with frames painted between (a 200-widget page took two to three
  // times its render time that way); an update from a layout effect renders at once, in the same
  // task, before anything is painted. Taken on commit, so a transition render React throws away
  // and restarts does not spend the prefetched answer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per mount (screens key the view by page)
  useLayoutEffect(() => {
    const p = takeArrived(project, pageId, preview, props.display === true, (a) => kindsLoaded(a.document));
    if (!p) return;
    performance.mark('lc:kinds-loaded');
    skipFetch.current = true;
    setPage(p);
  }, []);

  useEffect(() => {
    if (skipFetch.current) {
      skipFetch.current = false;
      return;
    }
    let live = true;
    setPage(null);
    setError(null);
    fetchPage(project, pageId, preview, props.display === true)
      .then(async (p) => {
        await preloadKinds(p.document);
        performance.mark('lc:kinds-loaded');
        if (live) setPage(p);
      })
      .catch((e: unknown) => {
        if (!live) return;
        const code = e instanceof ApiError ? e.code : -1;
        if (NO_ACCESS_CODES.has(code) && props.modalKey === undefined) {
          navigate('/no-authority', { replace: true });
          return;
        }
        setError({ code, msg: e instanceof Error ? e.message : String(e) });
      });
    return () => {
      live = false;
    };
  }, [project, pageId, preview, navigate, props.modalKey, props.display]);

  // The page's title in the user's language (/system/i18n), as the window's title.
  const texts = useProjectTexts(preview ? null : project);
  const title = page ? texts[pageId] || page.document.title : '';
  useEffect(() => {
    if (title && props.modalKey === undefined) document.title = title;
  }, [title, props.modalKey]);

  // Widget captions in the user's language too (the same translation map, `{page}.{widget}`).
  const doc = useMemo(
    () => (page ? translateDocument(page.document, pageId, texts) : null),
    [page, pageId, texts],
  );

  const params = useMemo(() => props.params ?? {}, [props.params]);
  const standalone = props.standalone === true;
  const modalKey = props.modalKey;

  // The page document as the print action reads it (its `_option._pc.print`).
  const docRef = useRef<unknown>(null);
  docRef.current = page?.document;
  const host = useCallback(
    (pg: { store: PageStore; index: Map<string, WidgetInstance>; scope: () => ExprScope }): ActionHost =>
      createHost({
        project,
        pageId,
        mode,
        standalone,
        modalKey,
        navigate,
        ...pg,
        user,
        doc: () => docRef.current,
      }),
    [project, pageId, mode, standalone, modalKey, navigate, user],
  );

  const onHost = useCallback((h: ActionHost) => requestSetup(project, h), [project]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: PageView is this component (nested pages)
  const renderPage = useCallback(
    (id: string): ReactNode => <PageView project={project} pageId={id} mode={mode} standalone={standalone} />,
    [project, mode, standalone],
  );

  if (error)
    return (
      <Result status="warning" title={t('runtime.loadFailed')} subTitle={`${error.code}: ${error.msg}`} />
    );
  if (!page || !doc)
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  return (
    <PageRenderer
      project={project}
      pageId={pageId}
      doc={doc}
      mode={mode}
      params={params}
      user={user}
      runtimeMode={preview ? 'preview' : 'runtime'}
      lang={currentLang() === 'zh' ? 'zh' : 'en'}
      host={host}
      onHost={onHost}
      renderPage={renderPage}
    />
  );
}

interface HostInput {
  project: string;
  pageId: string;
  mode: PageMode;
  standalone: boolean;
  modalKey?: number;
  navigate: ReturnType<typeof useNavigate>;
  store: PageStore;
  index: Map<string, WidgetInstance>;
  scope: () => ExprScope;
  user: unknown;
  /** The page document (for its print option). */
  doc?: () => unknown;
}

/** The effects of actions for one rendered page. */
export function createHost(h: HostInput): ActionHost {
  const host: ActionHost = {
    scope: h.scope,
    openPage(page, params, target) {
      const href = pageHref(h.project, page, params, h.standalone);
      if (target === 'blank') window.open(href, '_blank', 'noopener');
      else void h.navigate(href);
    },
    openModal(req) {
      useModals
        .getState()
        .open({ ...req, width: snapModalWidth(req.width), project: h.project, mode: h.mode });
    },
    closeModal(result) {
      useModals.getState().close(result, h.modalKey);
    },
    navigate(url, replace) {
      if (!isSafeUrl(url)) throw new ActionError('navigate: unsafe URL', 'navigate');
      if (url.startsWith('/') && !url.startsWith('//')) void h.navigate(url, { replace });
      else if (replace) window.location.replace(url);
      else window.location.assign(url);
    },
    async runProgram(program, params) {
      // prepare → input form → exec → display, on the row in scope (a button in a list copy or a
      // table row); its coded error, if any, stops the action list and is shown as a notice.
      const row = obj(h.scope().record);
      const record = typeof row._id === 'string' ? row._id : undefined;
      // The runner (its input and display modals) loads when a page first runs a program.
      const { runProgramFlow } = await import('./program-runner.tsx');
      return runProgramFlow(h.project, program, h.pageId, { params, record });
    },
    refreshWidget(widget) {
      bumpReload(h.store, widget);
    },
    setValue(target, value) {
      if (target.startsWith('state.')) setStateVar(h.store, target.slice(6), value);
      else setWidgetValue(h.store, target, value);
    },
    async submitForm(formId, values) {
      const form = h.index.get(formId);
      const behaviour = form ? getWidget(form.kind)?.form : undefined;
      if (!form || !behaviour) throw new ActionError(`submitForm: ${formId} is not a form`, 'submitForm');
      if (!values) {
        // Let the form validate its inputs and fire its submit event with them (which saves).
        const el = document.querySelector<HTMLFormElement>(`[data-wid="${CSS.escape(formId)}"] form`);
        if (!el) throw new ActionError(`submitForm: ${formId} is not on the page`, 'submitForm');
        el.requestSubmit();
        return;
      }
      const target = behaviour.target(form.props);
      if (!target.entity) throw new ActionError('submitForm: the form has no table', 'submitForm');
      const clean = await checkFormValues(h.project, target.entity, target.required, values);
      const id = str(obj(h.scope().params).id) || undefined;
      await saveRecord(h.project, target.entity, clean, id);
      clearDraft(h.pageId, formId);
      setWidgetValue(h.store, formId, values);
      const name = target.name || str(form.name, '') || 'submit';
      notify('success', `${name}${i18nSuccess()}`);
      bumpReload(h.store, formId);
    },
    notify(level, message, title) {
      notify(level, message, title);
    },
    async runCode(code) {
      await sandbox().run(code, createScriptHost({ project: h.project, host, lang: currentLang }));
    },
    print(req) {
      const where = { page: h.pageId, url: window.location.pathname + window.location.search };
      const option = mergePrintOption(pagePrintOption(h.doc?.()), req.option, where, lastPrintOption());
      usePrints
        .getState()
        .open({ project: h.project, option, ...(req.template ? { template: req.template } : {}) });
    },
  };
  return host;
}

function i18nSuccess(): string {
  return currentLang() === 'zh' ? '成功' : ' succeeded';
}

/**
 * Checks a form's values against its required fields (as its kind names them) and the table's field
 * types before saving; the server checks again. Answers the values to send: only the table's fields.
 */
export async function checkFormValues(
  project: string,
  entity: string,
  required: readonly { key: string; label: string }[],
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const meta = await entityMeta(project, entity);
  const byKey = new Map(meta.fields.map((f) => [f.key, f]));
  const out: Record<string, unknown> = {};
  for (const f of required) {
    const v = values[f.key];
    if (v === undefined || v === null || v === '')
      throw new ActionError(`${f.label}: ${currentLang() === 'zh' ? '必填' : 'required'}`, 'submitForm');
  }
  for (const [k, v] of Object.entries(values)) {
    const f = byKey.get(k);
    if (!f || v === undefined) continue;
    if (f.type === 'number' && v !== null && v !== '') {
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n))
        throw new ActionError(
          `${f.name}: ${currentLang() === 'zh' ? '必须是数字' : 'must be a number'}`,
          'submitForm',
        );
      out[k] = n;
    } else out[k] = v;
  }
  return out;
}

/** The setup script of each project (custom config `code`), fetched once per window. */
const setupCode = new Map<string, Promise<string>>();

function loadSetupCode(project: string): Promise<string> {
  let hit = setupCode.get(project);
  if (!hit) {
    // The same init answer the route guard uses (rule 5): one call per project and window.
    hit = appInitOnce(project).then((init) => str(init.custom?.code));
    hit.catch(() => setupCode.delete(project));
    setupCode.set(project, hit);
  }
  return hit;
}

/** Fetches the project's setup script early (screens call it on open; a page then runs it). */
export function useProjectSetup(project: string | null) {
  useEffect(() => {
    if (project) void loadSetupCode(project).catch(() => undefined);
  }, [project]);
}

/**
 * A rendered page asks for the project's setup script: it runs once per project and window, 100 ms
 * after the last page asked (debounced), with the whole `api` on that page (setValue, getValue and
 * refresh act on its widgets; modals open above it).
 */
function requestSetup(project: string, host: ActionHost): void {
  if (setupStarted.has(project)) return;
  const sb = sandbox();
  sb.onError = (msg) => notify('error', msg);
  loadSetupCode(project)
    .then((code) => {
      if (!code.trim() || setupStarted.has(project)) return;
      setupStarted.add(project);
      sb.setup(code, createScriptHost({ project, host, lang: currentLang }));
    })
    .catch(() => undefined);
}

/** The modal stack: pages opened by openModal, each an antd Modal above the page (z-index 4000). */
export function ModalStack({ standalone = false }: { standalone?: boolean }) {
  const { notification } = App.useApp();
  useEffect(() => {
    setNoticeApi({ open: (n) => notification.open({ ...n, placement: 'topRight' }) });
    return () => setNoticeApi(null);
  }, [notification]);
  const stack = useModals((s) => s.stack);
  const close = useModals((s) => s.close);
  useEffect(() => installBackHandler(), []);
  useEffect(() => () => useModals.getState().clear(), []);
  return (
    <>
      {stack.map((m, i) => (
        <Modal
          key={m.key}
          open
          title={m.title}
          width={m.width}
          zIndex={MODAL_Z_INDEX + i}
          footer={null}
          destroyOnHidden
          onCancel={() => close(undefined, m.key)}
          className="lc-runtime-modal"
        >
          <PageView
            project={m.project}
            pageId={m.page}
            mode={m.mode}
            params={m.params}
            standalone={standalone}
            modalKey={m.key}
          />
        </Modal>
      ))}
      <PrintHost />
    </>
  );
}
