/** /page/{id} (and /display/{id}): a published page (or display) of the current project in the root layout. */
import { Result } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { ModalStack, PageView, useProjectSetup } from '../../runtime/PageView.tsx';
import { useWorkbench } from '../../stores/workbench.ts';
import { pageParams, useViewMode } from './view-mode.ts';

export default function PageScreen({ display = false }: { display?: boolean }) {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const { t } = useTranslation();
  const project = useWorkbench((s) => s.projectId);
  const mode = useViewMode(search);
  const key = search.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query string is the params' identity
  const params = useMemo(() => pageParams(search), [key]);
  useProjectSetup(project);
  if (!project) return <Result status="info" title={t('runtime.noProject')} />;
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
