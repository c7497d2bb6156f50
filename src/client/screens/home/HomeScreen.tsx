import { Card, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayName } from '../../../shared/validation.ts';
import { api, type Project } from '../../api/account.ts';
import { useSession } from '../../stores/session.ts';
import { CreateProjectForm } from './CreateProjectForm.tsx';
import { ProjectList } from './ProjectList.tsx';
import { RecentUsed } from './RecentUsed.tsx';

/** Home: who is signed in, their systems, and a form to create one. */
export default function HomeScreen() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const [projects, setProjects] = useState<Project[]>([]);
  const [loading, setLoading] = useState(true);

  const load = useCallback(() => {
    setLoading(true);
    api
      .projects()
      .then(setProjects, () => undefined)
      .finally(() => setLoading(false));
  }, []);
  useEffect(load, [load]);

  return (
    <div className="home">
      <Typography.Title level={3}>
        {t('home.welcome', { name: user ? displayName(user) : '' })}
      </Typography.Title>
      <RecentUsed />
      <Card title={t('home.projects')} className="home-card">
        <ProjectList projects={projects} loading={loading} />
      </Card>
      <Card title={t('home.createTitle')} className="home-card">
        <CreateProjectForm onCreated={(p) => setProjects((list) => [...list, p])} />
      </Card>
    </div>
  );
}
