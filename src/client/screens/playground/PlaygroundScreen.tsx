/**
 * /playground/{app} (spec route table): a sample app of the playground, opened in the system that
 * holds it (the demo project) at its entry page, in the mode it was built for (the shop's pages are
 * phone pages; `?mode=` still wins). The URL's query is the page's parameters; with none, the app's
 * own (e.g. the product a detail page shows first). Sample pages link each other by these routes.
 */
import { Button, Result } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/api-error.ts';
import { get } from '../../api/request.ts';
import { ModalStack, PageView, useProjectSetup } from '../../runtime/PageView.tsx';
import { storedProject } from '../../runtime/page-prefetch.ts';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { useShell } from '../../stores/shell.ts';
import { pageParams } from '../page/view-mode.ts';

interface Opened {
  app: string;
  project: string;
  page: string;
  mode: 'pc' | 'mobile';
  params: Record<string, unknown>;
}

export default function PlaygroundScreen() {
  const { app = '' } = useParams();
  const [search] = useSearchParams();
  const { t } = useTranslation();
  const [opened, setOpened] = useState<Opened | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setOpened(null);
    setFailed(null);
    // A sample copied into the system the user is in opens there, not in the demo project.
    const here = useShell.getState().projectId ?? storedProject();
    const prefer = here ? `?prefer=${encodeURIComponent(here)}` : '';
    get<Opened>(`/api/common/playground/${encodeURIComponent(app)}${prefer}`, { quiet: true }).then(
      (o) => live && setOpened(o),
      (e: unknown) => live && setFailed(e instanceof ApiError || e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [app]);
  const key = search.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query string is the params' identity
  const params = useMemo(() => {
    const query = pageParams(search);
    return Object.keys(query).length ? query : (opened?.params ?? {});
  }, [key, opened]);
  useProjectSetup(opened?.project ?? null);
  if (failed)
    return (
      <Result
        status="404"
        title={t('playground.failed')}
        subTitle={failed}
        extra={
          <Link to="/">
            <Button type="primary">{t('playground.home')}</Button>
          </Link>
        }
      />
    );
  if (!opened) return <PageLoading />;
  const asked = search.get('mode');
  const mode = asked === 'pc' || asked === 'mobile' ? asked : opened.mode;
  return (
    <div className="lc-app-page lc-playground" data-app={app} data-mode={mode}>
      <PageView
        key={`${opened.project}/${opened.page}/${key}`}
        project={opened.project}
        pageId={opened.page}
        mode={mode}
        params={params}
        standalone
      />
      <ModalStack standalone />
    </div>
  );
}
