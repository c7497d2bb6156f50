import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Layout, Space, Tag } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useNavigate } from 'react-router';
import { displayName } from '../../../shared/validation.ts';
import { LanguageSwitch } from '../../shell/LanguageSwitch.tsx';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { signOut } from '../../shell/session.ts';
import { useSession } from '../../stores/session.ts';

/** The signed-in frame: top bar with the user, language and logout; the screen below. */
export default function RootLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const limited = useSession((s) => s.limited);

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
