import { Result, Spin, Tabs } from 'antd';
import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { useAppProject } from '../../shell/use-app-project.ts';
import { useShell } from '../../stores/shell.ts';
import { WorkbenchContext } from '../workbench/workbench-context.ts';
import { SYSTEM_SECTIONS } from './sections.ts';

/**
 * /system/…: the owner's administration area (builder spec §2) for the system the shell shows.
 * Only its owner and administrators get in (the server decides the same: access/decide.ts);
 * members get a clear refusal, never the screens.
 */
export default function SystemLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const loaded = useShell((s) => s.projects !== null);
  const { current, projects, builder } = useAppProject();
  const value = useMemo(() => (current ? { project: current, projects } : null), [current, projects]);
  const base = pathname.slice(0, pathname.indexOf('/system') + '/system'.length);
  const section =
    SYSTEM_SECTIONS.find((s) => pathname.startsWith(`${base}/${s.key}`))?.key ??
    // One table's advanced settings (/system/data/{entity}) belong to data-advanced.
    (pathname.startsWith(`${base}/data`) ? 'data-advanced' : undefined);

  if (!loaded) return <Spin className="center-pad" />;
  if (!current || !builder || !value) {
    return (
      <Result
        status="403"
        title={t('sys.refusedTitle')}
        subTitle={current ? t('sys.refusedBody', { name: current._name }) : t('sys.noSystem')}
        data-testid="system-refused"
      />
    );
  }
  return (
    <WorkbenchContext.Provider value={value}>
      <div className="system-area" data-testid="system-area">
        <Tabs
          activeKey={section ?? ''}
          onChange={(key) => navigate(`${base}/${key}`)}
          items={SYSTEM_SECTIONS.map((s) => ({ key: s.key, label: t(s.label) }))}
          className="system-tabs"
        />
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </div>
    </WorkbenchContext.Provider>
  );
}
