import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Layout, Space, Switch, Tag } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useNavigate } from 'react-router';
import { displayName } from '../../../shared/validation.ts';
import { api } from '../../api/account.ts';
import { LanguageSwitch } from '../../shell/LanguageSwitch.tsx';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { signOut } from '../../shell/session.ts';
import { useSession } from '../../stores/session.ts';
import { useWorkbench } from '../../stores/workbench.ts';
import { canBuild, selectProject } from '../workbench/project-select.ts';

/** The signed-in frame: top bar with the user, language and logout; the screen below. */
export default function RootLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const limited = useSession((s) => s.limited);
  const storedProject = useWorkbench((s) => s.projectId);
  const [builder, setBuilder] = useState(false);

  // "Manage mode" is offered to the owner or an admin of the current project (builder spec §4, §6).
  useEffect(() => {
    api.projects().then(
      (list) => setBuilder(canBuild(selectProject(list, storedProject, user?._id ?? null))),
      () => setBuilder(false),
    );
  }, [storedProject, user]);

  function toDev() {
    useWorkbench.getState().setMode('dev');
    navigate('/dev');
  }

  async function logout() {
    await signOut();
    navigate('/login', { replace: true });
  }

  return (
    <Layout className="root-layout">
      <Layout.Header className="top-bar">
        <Link to="/" className="top-title">
          {t('app.title')}
        </Link>
        <Space wrap size="small" className="top-actions">
          {limited ? <Tag color="red">{t('home.limited')}</Tag> : null}
          {builder ? (
            <span className="wb-mode">
              <Switch
                aria-label={t('wb.manageMode')}
                size="small"
                checked={false}
                onChange={toDev}
                data-testid="manage-mode"
              />{' '}
              {t('wb.manageMode')}
            </span>
          ) : null}
          <span data-testid="current-user">
            <UserOutlined /> {user ? displayName(user) : ''}
          </span>
          <LanguageSwitch />
          <Button size="small" icon={<LogoutOutlined />} onClick={logout} data-testid="logout">
            {t('home.logout')}
          </Button>
        </Space>
      </Layout.Header>
      <Layout.Content className="root-content">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
    </Layout>
  );
}
