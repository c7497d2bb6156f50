/** /page/{id} (and /display/{id}): a published page (or display) of the current project in the root layout. */
import { Result } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { ModalStack, PageView, useProjectSetup } from '../../runtime/PageView.tsx';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { useShellProject } from '../../shell/use-app-project.ts';
import { pageParams, useViewMode } from './view-mode.ts';

export default function PageScreen({ display = false }: { display?: boolean }) {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const { t } = useTranslation();
  // The shell's system (not only a builder's stored choice): a member who just signed in has none stored.
  const { id: project, ready } = useShellProject();
  const mode = useViewMode(search);
  const key = search.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query string is the params' identity
  const params = useMemo(() => pageParams(search), [key]);
  useProjectSetup(project);
  if (!project) return ready ? <Result status="info" title={t('runtime.noProject')} /> : <PageLoading />;
  return (
    <div className="lc-page-screen" data-mode={mode}>
      <PageView
        key={`${project}/${id}`}
        project={project}
        pageId={id}
        mode={mode}
        params={params}
        display={display}
      />
      <ModalStack />
    </div>
  );
}
