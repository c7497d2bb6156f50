/**
 * /dev/preview?page=<id>&project=<id>: builders and reviewers see the page's DRAFT (not the published
 * version) under a "preview" banner; `mode=mobile` shows the phone layout. Without a page (the
 * workbench's "Preview"), the project's pages to choose from.
 */
import { Alert, Result, Segmented } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ModalStack, PageView, useProjectSetup } from '../../runtime/PageView.tsx';
import { useWorkbench } from '../../stores/workbench.ts';
import { PreviewPicker } from './PreviewPicker.tsx';
import { pageParams, useViewMode } from './view-mode.ts';

export default function PreviewScreen() {
  const [search, setSearch] = useSearchParams();
  const { t } = useTranslation();
  const stored = useWorkbench((s) => s.projectId);
  const project = search.get('project') || stored || '';
  const page = search.get('page') || '';
  const mode = useViewMode(search);
  const key = search.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query string is the params' identity
  const params = useMemo(() => pageParams(search), [key]);
  useProjectSetup(project || null);
  if (!project) return <Result status="info" title={t('runtime.previewMissing')} />;
  if (!page) return <PreviewPicker project={project} />;
  return (
    <div className="lc-preview" style={{ padding: 16 }}>
      <Alert
        type="warning"
        showIcon
        banner
        title={t('runtime.previewBanner')}
        action={
          <Segmented
            size="small"
            value={mode}
            options={[
              { value: 'pc', label: t('runtime.pc') },
              { value: 'mobile', label: t('runtime.mobile') },
            ]}
            onChange={(v) => {
              const next = new URLSearchParams(search);
              next.set('mode', String(v));
              setSearch(next, { replace: true });
            }}
          />
        }
        style={{ marginBottom: 16 }}
        data-testid="preview-banner"
      />
      <PageView
        key={`${project}/${page}/${mode}`}
        project={project}
        pageId={page}
        mode={mode}
        params={params}
        preview
      />
      <ModalStack />
    </div>
  );
}
