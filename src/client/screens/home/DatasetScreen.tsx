/**
 * /dataset/{id}: a dataset on its own (a role home of kind dataset opens here after sign-in): its
 * released rows in the end user's data view (read-only: sort, filter, search, paging) through the show
 * call with the user's dataset grant; not granted → /no-authority.
 */
import { Result, Typography } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '../../../shared/constants.ts';
import { allFeatures } from '../../../shared/view-features.ts';
import { withPrefix } from '../../shell/navigation.ts';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { useShellProject } from '../../shell/use-app-project.ts';
import { useShell } from '../../stores/shell.ts';
import { DataTableView } from '../../views/DataView.tsx';

/** Codes meaning "your role may not read this". */
const DENIED = new Set([1102, 1201, 1920, 1925]);

export default function DatasetScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const projectId = useShell((s) => s.projectId);
  const shown = useShellProject();
  const custom = useShell((s) => s.custom);
  const onDenied = useCallback(
    (code: number) => {
      if (DENIED.has(code)) navigate(withPrefix('/no-authority', custom), { replace: true });
    },
    [navigate, custom],
  );
  if (!projectId)
    return shown.id || !shown.ready ? <PageLoading /> : <Result status="info" title={t('list.noProject')} />;
  return (
    <div className="list-screen" data-testid="dataset-screen">
      <Typography.Title level={4} className="list-title">
        {t('list.dataset')}
      </Typography.Title>
      <DataTableView
        key={`${projectId}/${id}`}
        project={projectId}
        entity={id}
        dataset={{ flow: id }}
        title={t('list.dataset')}
        options={allFeatures(PAGE_SIZE_DEFAULT)}
        onDenied={onDenied}
      />
    </div>
  );
}
