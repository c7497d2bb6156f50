import { Button, Result, Spin } from 'antd';
import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { adminBase, entryNeedsOf } from '../../shell/admin-menu.ts';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { useAppProject } from '../../shell/use-app-project.ts';
import { useAdminContext } from '../../stores/admin-features.ts';
import { useShell } from '../../stores/shell.ts';
import { WorkbenchContext } from '../workbench/workbench-context.ts';

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
  const base = adminBase(pathname) ?? '/system';
  const ctx = useAdminContext(current && builder ? current._id : null);
  // A screen whose feature this system switched off says so (the menu no longer lists it).
  const entry = entryNeedsOf(pathname.slice(base.length + 1));
  const off = entry?.feature && ctx && ctx.flags[entry.feature] !== true ? entry : null;

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
        {off ? (
          <Result
            status="info"
            title={t('adm3.off.title')}
            subTitle={t('adm3.off.body', { name: t(off.label) })}
            data-testid="system-feature-off"
            extra={
              <Button type="primary" onClick={() => navigate(`${base}/features`)}>
                {t('adm3.off.open')}
              </Button>
            }
          />
        ) : (
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        )}
      </div>
    </WorkbenchContext.Provider>
  );
}
