import { App, Result, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '../../../shared/constants.ts';
import { allFeatures } from '../../../shared/view-features.ts';
import { currentNoticeApi, setNoticeApi } from '../../runtime/notices.ts';
import { findEntry } from '../../shell/menu.ts';
import { withPrefix } from '../../shell/navigation.ts';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { useShellProject } from '../../shell/use-app-project.ts';
import { useShell } from '../../stores/shell.ts';
import { DataTableView } from '../../views/DataView.tsx';
import { useGrantedPrograms } from '../../views/use-granted-programs.ts';

/** Codes meaning "your role may not read this": the user is sent to /no-authority. */
const DENIED = new Set([1102, 1201]);
/** A dataset entry that no longer shows: not found or not released (as on /dataset/{id}). */
const DATASET_GONE = new Set([1920, 1925]);
/** No table by that id: a list entry may name a dataset instead. */
const NOT_A_TABLE = 1400;

/**
 * /home/{page}: a list (table) menu entry: the end user's data view of the table (views/DataView.tsx)
 * with every feature on, through the end-user data calls with the user's grants; when the entry names
 * a dataset, the same view over its released rows (read-only: sort, filter, search, paging). An entry missing
 * from the user's menu, or a table the role may not read, goes to /no-authority.
 */
export default function ListScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { page = '' } = useParams();
  const projectId = useShell((s) => s.projectId);
  // Known before the frame's effect hands it to the store (a fresh sign-in): wait, not "no system".
  const shown = useShellProject();
  const custom = useShell((s) => s.custom);
  const menu = useShell((s) => s.menu);
  const menuFor = useShell((s) => s.menuFor);
  const entry = findEntry(menu, (n) => n._type === 'table' && n._value === page);
  // The menu says when an entry shows a dataset; else a table answering "no such table" is one.
  const [probed, setDataset] = useState<string | null>(null);
  const dataset = (entry as { _dataset?: boolean } | undefined)?._dataset === true ? page : probed;
  // The entry's bound programs the user's role is granted (builder spec: list entries bind programs).
  const bound = ((entry as { _program?: unknown } | undefined)?._program ?? []) as string[];
  const programs = useGrantedPrograms(projectId, bound);
  // Programs run from this list show their messages and errors as notices (pages lend theirs too).
  const { notification } = App.useApp();
  useEffect(() => {
    const before = currentNoticeApi();
    setNoticeApi({ open: (n) => notification.open({ ...n, placement: 'topRight' }) });
    return () => setNoticeApi(before);
  }, [notification]);
  const onDenied = useCallback(
    (code: number) => {
      if (code === NOT_A_TABLE && dataset !== page) setDataset(page);
      else if (DENIED.has(code) || (dataset === page && DATASET_GONE.has(code)))
        navigate(withPrefix('/no-authority', custom), { replace: true });
    },
    [navigate, custom, dataset, page],
  );

  // The user's menu for this project has loaded and holds no such list: not granted.
  const denied = projectId !== null && menuFor === projectId && !entry;
  useEffect(() => {
    if (denied) navigate(withPrefix('/no-authority', custom), { replace: true });
  }, [denied, navigate, custom]);

  if (!projectId)
    return shown.id || !shown.ready ? <PageLoading /> : <Result status="info" title={t('list.noProject')} />;
  if (!entry) return null;
  return (
    <div className="list-screen" data-testid="list-screen">
      <Typography.Title level={4} className="list-title">
        {entry.name}
      </Typography.Title>
      {dataset === page ? (
        <DataTableView
          key={`${projectId}/ds/${page}`}
          project={projectId}
          entity={page}
          dataset={{ flow: page }}
          title={entry.name}
          options={allFeatures(PAGE_SIZE_DEFAULT)}
          onDenied={onDenied}
        />
      ) : (
        <DataTableView
          key={`${projectId}/${page}`}
          project={projectId}
          entity={page}
          title={entry.name}
          options={allFeatures(PAGE_SIZE_DEFAULT)}
          onDenied={onDenied}
          programs={programs}
          programKey={entry._id}
        />
      )}
    </div>
  );
}
