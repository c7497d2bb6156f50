import {
  AppstoreOutlined,
  DatabaseOutlined,
  EyeOutlined,
  FileOutlined,
  LogoutOutlined,
  MenuOutlined,
  SettingOutlined,
  TableOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { Button, Layout, Menu, Result, Space, Spin, Switch, Tag } from 'antd';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { displayName } from '../../../shared/validation.ts';
import type { Project } from '../../api/account.ts';
import { ApiError } from '../../api/api-error.ts';
import { wb } from '../../api/workbench.ts';
import { LanguageSwitch } from '../../shell/LanguageSwitch.tsx';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { signOut } from '../../shell/session.ts';
import { useSession } from '../../stores/session.ts';
import { useWorkbench } from '../../stores/workbench.ts';
import { ProjectSwitcher } from './ProjectSwitcher.tsx';
import { canBuild, selectProject } from './project-select.ts';
import { WorkbenchContext } from './workbench-context.ts';

/** Paths a limited project may still open in dev mode (builder spec §4). */
const OPEN_WHEN_LIMITED = /^\/dev\/(expired|preview)(\/|$)/;

/** The dev-mode frame: toolbar (system, manage mode, user) and the builder's areas beside the screen. */
export default function DevLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const user = useSession((s) => s.user);
  const limited = useSession((s) => s.limited);
  const storedId = useWorkbench((s) => s.projectId);
  const setProject = useWorkbench((s) => s.setProject);
  const setMode = useWorkbench((s) => s.setMode);
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [checked, setChecked] = useState<string | null>(null);

  useEffect(() => {
    setMode('dev');
    wb.projects().then(setProjects, () => setProjects([]));
  }, [setMode]);

  const project = useMemo(
    () => (projects ? selectProject(projects, storedId, user?._id ?? null) : null),
    [projects, storedId, user],
  );

  // Load the project in dev mode: a limited one answers 104, which the request wrapper flags.
  useEffect(() => {
    if (!project || !canBuild(project)) return;
    useSession.getState().setLimited(project._limited);
    setChecked(null);
    wb.project(project._id).then(
      () => setChecked(project._id),
      (err: unknown) => {
        if (err instanceof ApiError && err.code === 104) useSession.getState().setLimited(true);
        setChecked(project._id);
      },
    );
  }, [project]);

  useEffect(() => {
    if (limited && project && checked === project._id && !OPEN_WHEN_LIMITED.test(pathname)) {
      navigate('/dev/expired', { replace: true });
    }
  }, [limited, project, checked, pathname, navigate]);

  const switchTo = useCallback(
    (id: string, path = '/dev/data') => {
      setProject(id);
      useSession.getState().setLimited(false);
      navigate(path);
    },
    [setProject, navigate],
  );

  function toApp() {
    setMode('app');
    navigate('/');
  }

  async function logout() {
    await signOut();
    navigate('/login', { replace: true });
  }

  const area = /^\/dev\/(data|pages|menus|programs|datasets)(\/|$)/.exec(pathname)?.[1] ?? '';
  const menu = [
    { key: 'data', icon: <DatabaseOutlined />, label: <Link to="/dev/data">{t('wb.data')}</Link> },
    { key: 'pages', icon: <FileOutlined />, label: <Link to="/dev/pages">{t('pages.area')}</Link> },
    { key: 'menus', icon: <MenuOutlined />, label: <Link to="/dev/menus">{t('wb.menus')}</Link> },
    {
      key: 'programs',
      icon: <ThunderboltOutlined />,
      label: <Link to="/dev/programs">{t('program.programs')}</Link>,
    },
    {
      key: 'datasets',
      icon: <TableOutlined />,
      label: <Link to="/dev/datasets">{t('ds.datasets')}</Link>,
    },
    { key: 'settings', icon: <SettingOutlined />, label: <a href="/system/project">{t('wb.settings')}</a> },
    {
      key: 'preview',
      icon: <EyeOutlined />,
      label: (
        // The preview of the project's pages: a list to pick one from (PreviewPicker).
        <a
          href={project ? `/dev/preview?project=${encodeURIComponent(project._id)}` : '/dev/preview'}
          target="_blank"
          rel="noreferrer"
          data-testid="wb-preview"
        >
          {t('wb.preview')}
        </a>
      ),
    },
  ];

  let body: React.ReactNode;
  if (!projects) body = <Spin className="center-pad" />;
  else if (!project) body = <Result status="info" title={t('wb.noProject')} />;
  else if (!canBuild(project))
    body = (
      <Result
        status="403"
        title={t('wb.noAccess')}
        subTitle={t('wb.switchOther')}
        extra={<Button onClick={toApp}>{t('wb.toApp')}</Button>}
      />
    );
  else if (checked !== project._id) body = <Spin className="center-pad" />;
  else
    body = (
      <WorkbenchContext.Provider value={{ project, projects }}>
        <Suspense fallback={<PageLoading />}>
          <Outlet key={project._id} />
        </Suspense>
      </WorkbenchContext.Provider>
    );

  return (
    <Layout className="wb-layout" data-testid="workbench">
      <Layout.Header className="top-bar wb-top">
        <Space size="middle" wrap>
          <Link to="/dev" className="top-title">
            <AppstoreOutlined /> {t('wb.title')}
          </Link>
          {projects ? (
            <ProjectSwitcher
              projects={projects}
              current={project?._id ?? null}
              onSwitch={(id) => switchTo(id)}
              onCreated={(p, path) => {
                setProjects((list) => [...(list ?? []), p]);
                switchTo(p._id, path);
              }}
            />
          ) : null}
          {limited ? <Tag color="red">{t('home.limited')}</Tag> : null}
        </Space>
        <Space size="small" wrap className="top-actions">
          <span className="wb-mode">
            <Switch
              aria-label={t('wb.manageMode')}
              size="small"
              checked
              onChange={toApp}
              data-testid="manage-mode"
            />{' '}
            {t('wb.manageMode')}
          </span>
          <span data-testid="current-user">{user ? displayName(user) : ''}</span>
          <LanguageSwitch />
          <Button size="small" icon={<LogoutOutlined />} onClick={logout} data-testid="logout">
            {t('home.logout')}
          </Button>
        </Space>
      </Layout.Header>
      <Layout>
        <Layout.Sider width={180} theme="light" breakpoint="md" collapsedWidth={56} className="wb-sider">
          <Menu
            mode="inline"
            selectedKeys={[area]}
            items={menu}
            style={{ borderInlineEnd: 'none' }}
            data-testid="wb-menu"
          />
        </Layout.Sider>
        <Layout.Content className="wb-content">{body}</Layout.Content>
      </Layout>
    </Layout>
  );
}
