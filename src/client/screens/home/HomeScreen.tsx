import { Card, Typography } from 'antd';
import { memo, useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { displayName } from '../../../shared/validation.ts';
import type { Project } from '../../api/account.ts';
import { homePath } from '../../shell/navigation.ts';
import { roleHomePath } from '../../shell/role-home.ts';
import { refreshProjects, useAppProject } from '../../shell/use-app-project.ts';
import { useSession } from '../../stores/session.ts';
import { useShell } from '../../stores/shell.ts';
import { useWorkbench } from '../../stores/workbench.ts';
import { canBuild } from '../workbench/project-select.ts';
import { CreateProjectForm } from './CreateProjectForm.tsx';
import { ProjectList } from './ProjectList.tsx';
import { RecentUsed } from './RecentUsed.tsx';

/**
 * Home: who is signed in, their systems (a click opens one in the shell), and — for those who
 * build a system, or have none yet — a form to create one. A member of others' systems only is
 * not offered it: creating systems is a builder's business.
 */
export default function HomeScreen() {
  const navigate = useNavigate();
  const custom = useShell((s) => s.custom);
  const { current } = useAppProject();
  // The frame loads the list once per sign-in; home asks again, so a system joined since shows.
  useEffect(() => {
    if (useShell.getState().projects !== null) void refreshProjects();
  }, []);
  // Right after signing in, the role's home opens (when the role has one).
  const landing = useSession((s) => s.landing);
  useEffect(() => {
    if (!landing || !current) return;
    useSession.getState().setLanding(false);
    roleHomePath(current._id, custom).then(
      (path) => path && navigate(path, { replace: true }),
      () => {},
    );
  }, [landing, current, custom, navigate]);

  const open = useCallback(
    (p: Project) => {
      useWorkbench.getState().setProject(p._id);
      navigate(homePath(p._home, null), { replace: true });
    },
    [navigate],
  );
  return <HomeBody open={open} />;
}

/**
 * The screen's content, memoised: a click in the menu first re-renders whatever reads the route
 * (the router's loading state) while the next screen loads, and the cards, list and form need not
 * draw again only to be taken down.
 */
const HomeBody = memo(function HomeBody({ open }: { open: (p: Project) => void }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const loaded = useShell((s) => s.projects !== null);
  const custom = useShell((s) => s.custom);
  const { projects, current } = useAppProject();
  const mayCreate = loaded && (projects.length === 0 || projects.some(canBuild));

  return (
    <div className="home">
      <Typography.Title level={3}>
        {t('home.welcome', { name: user ? displayName(user) : '' })}
      </Typography.Title>
      <RecentUsed />
      <Card title={t('home.projects')} className="home-card">
        <ProjectList
          projects={projects}
          loading={!loaded}
          current={current?._id ?? null}
          onOpen={custom ? null : open}
        />
      </Card>
      {mayCreate ? (
        <Card title={t('home.createTitle')} className="home-card" data-testid="create-project">
          <CreateProjectForm
            onCreated={(p) => useShell.getState().setProjects([...(useShell.getState().projects ?? []), p])}
          />
        </Card>
      ) : null}
    </div>
  );
});
