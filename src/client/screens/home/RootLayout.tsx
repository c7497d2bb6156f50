import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Drawer, Layout, Tag } from 'antd';
import { lazy, memo, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, type NavigateFunction, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { warmMenuScreens } from '../../lazy-screens.ts';
import { AppMenu } from '../../shell/AppMenu.tsx';
import { findEntry } from '../../shell/menu.ts';
import { adminBase, homePath, menuPath, rootFlags } from '../../shell/navigation.ts';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { RecentTags } from '../../shell/RecentTags.tsx';
import { Toolbar } from '../../shell/Toolbar.tsx';
import { useAppProject, useNarrow, useShellProjectSync } from '../../shell/use-app-project.ts';
import { useSession } from '../../stores/session.ts';
import { useShell } from '../../stores/shell.ts';

// The administration's side menu (builders inside /system) loads with it, not on end users' pages.
const AdminMenu = lazy(() => import('../../shell/AdminMenu.tsx').then((m) => ({ default: m.AdminMenu })));

/**
 * The signed-in frame (spec §2 root layout): top bar with the toolbar, the side menu (a drawer on
 * phones and in mobile mode), recent tags, and the screen below. It also frames the menu's page
 * entries at `/app/{project}/{page}` (rule 9), showing that project. `?o_w_full` hides menu, top
 * bar and tags: the page alone, for embedding.
 *
 * This part follows the route (every navigation renders it) and keeps to the little that depends
 * on it; the frame itself (`Frame`) is memoised on what it takes from here, so a click from one
 * screen to another draws the new screen, the menu's selection and the tags — context readers
 * inside the frame — and not the top bar, side bar and their buttons again.
 */
export default function RootLayout() {
  const { pathname } = useLocation();
  // Stable across navigations (the frame and the toolbar are memoised on it).
  const navigate = useNavigate();
  const route = useParams().project ?? null;
  useShellProjectSync(route);
  const { builder } = useAppProject();
  const projectId = useShell((s) => s.projectId);
  const custom = useShell((s) => s.custom);
  const menu = useShell((s) => s.menu);

  // A visit to a menu entry's path (by click, tag or link) counts as its use and becomes a tag.
  // Bookkeeping, in a task of its own: a page drawn at once from a layout effect (PageView) flushes
  // this effect before its render, and the store writes and the tags' and menu's re-renders would
  // otherwise hold the page's first commit back.
  useEffect(() => {
    if (!projectId) return;
    const timer = setTimeout(() => {
      const entry = findEntry(menu, (n) => menuPath(n, projectId, custom) === pathname);
      if (!entry) return;
      useShell.getState().pushTag({ path: pathname, name: entry.name });
      useShell.getState().use({ id: entry._id, type: entry._type, name: entry.name });
    }, 0);
    return () => clearTimeout(timer);
  }, [pathname, menu, projectId, custom]);

  // Inside /system the side menu is the administration's (builder spec §2), for builders only.
  return <Frame admin={builder && adminBase(pathname) !== null} navigate={navigate} />;
}

const Frame = memo(function Frame({ admin, navigate }: { admin: boolean; navigate: NavigateFunction }) {
  const { t } = useTranslation();
  const limited = useSession((s) => s.limited);
  const { current, builder } = useAppProject();
  const mode = useShell((s) => s.screenMode);
  const collapsed = useShell((s) => s.collapsed);
  const fullScreen = useShell((s) => s.fullScreen);
  const custom = useShell((s) => s.custom);
  const narrow = useNarrow();
  const mobile = mode === 'mobile' || narrow;
  const [drawer, setDrawer] = useState(false);
  const sideMenu = (menuCollapsed: boolean, onOpen?: () => void) =>
    admin ? (
      <Suspense fallback={null}>
        <AdminMenu project={current?._id ?? null} collapsed={menuCollapsed} onOpen={onOpen} />
      </Suspense>
    ) : (
      <AppMenu collapsed={menuCollapsed} onOpen={onOpen} navigate={navigate} />
    );

  // The screens the menu opens load once the browser is idle: the first click draws at once.
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(warmMenuScreens, { timeout: 2000 });
      return () => cancelIdleCallback(id);
    }
    const timer = setTimeout(warmMenuScreens, 200);
    return () => clearTimeout(timer);
  }, []);

  // Root styling reflects the environment (spec §2): mobile/pc, provider, ios, mini-app, weixin, wxwork.
  useEffect(() => {
    const flags = rootFlags({
      userAgent: navigator.userAgent,
      mode: mobile ? 'mobile' : 'pc',
      dev: false,
      provider: custom !== null,
    });
    const root = document.documentElement;
    root.dataset.screen = mobile ? 'mobile' : 'pc';
    root.classList.add(...flags.map((f) => `lc-${f}`));
    return () => root.classList.remove(...flags.map((f) => `lc-${f}`));
  }, [mobile, custom]);

  const content = (
    <Layout.Content className="root-content">
      {fullScreen ? null : <RecentTags navigate={navigate} />}
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </Layout.Content>
  );
  if (fullScreen) return <Layout className="root-layout shell-full">{content}</Layout>;

  const title = current?._name || t('app.title');
  return (
    <Layout className={`root-layout shell-${mobile ? 'mobile' : 'pc'}`}>
      <Layout.Header className="top-bar">
        <div className="shell-brand">
          {mobile ? (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={t('shell.openMenu')}
              onClick={() => setDrawer(true)}
              data-testid="menu-open"
            />
          ) : (
            <Button
              type="text"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              aria-label={collapsed ? t('shell.expand') : t('shell.collapse')}
              onClick={() => useShell.getState().setCollapsed(!collapsed)}
              data-testid="menu-collapse"
            />
          )}
          <Link to={homePath(current?._home, custom)} replace className="top-title" data-testid="shell-title">
            {title}
          </Link>
          {limited ? <Tag color="red">{t('home.limited')}</Tag> : null}
        </div>
        <Toolbar builder={builder} compact={mobile} home={current?._home ?? null} navigate={navigate} />
      </Layout.Header>
      <Layout>
        {mobile ? (
          <Drawer
            open={drawer}
            onClose={() => setDrawer(false)}
            placement="left"
            size={280}
            title={admin ? t('adm3.menuLabel') : title}
            className="shell-drawer"
            data-testid="menu-drawer"
          >
            {sideMenu(false, () => setDrawer(false))}
          </Drawer>
        ) : (
          <Layout.Sider
            theme="light"
            width={220}
            collapsedWidth={56}
            collapsed={collapsed}
            className="shell-sider"
            aria-label={t('shell.menu')}
          >
            {sideMenu(collapsed)}
          </Layout.Sider>
        )}
        {content}
      </Layout>
    </Layout>
  );
});
