import { AppstoreOutlined, FileOutlined, FolderOutlined, TableOutlined } from '@ant-design/icons';
import { Empty, Menu, type MenuProps, Spin } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type NavigateFunction, useLocation } from 'react-router';
import { useProjectTexts } from '../runtime/project-texts.ts';
import { useShell } from '../stores/shell.ts';
import type { MenuNode } from './menu.ts';
import { menuPath } from './navigation.ts';

type Item = Required<MenuProps>['items'][number];

const ICONS: Record<string, React.ReactNode> = {
  dir: <FolderOutlined />,
  table: <TableOutlined />,
  page: <FileOutlined />,
  display: <AppstoreOutlined />,
};

/**
 * The side menu: directories, lists and custom pages, sorted and nested (spec §2). It takes the
 * frame's stable `navigate` rather than `useNavigate`, which reads the route context: the menu then
 * draws again when the path changes (its selection), not also when a navigation starts loading.
 */
export function AppMenu({
  collapsed,
  onOpen,
  navigate,
}: {
  collapsed: boolean;
  onOpen?: () => void;
  navigate: NavigateFunction;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const menu = useShell((s) => s.menu);
  const loading = useShell((s) => s.menuLoading);
  const projectId = useShell((s) => s.projectId);
  const custom = useShell((s) => s.custom);
  // Menu names in the user's language where /system/i18n has them.
  const texts = useProjectTexts(projectId);

  // Made again only when the menu or its names change, not at each navigation (which only moves
  // the selection): the menu then reuses its parsed items.
  const items = useMemo(() => {
    const toItem = (n: MenuNode): Item => {
      const path = projectId ? menuPath(n, projectId, custom) : null;
      if (n._type === 'dir') {
        return {
          key: `dir:${n._id}`,
          icon: ICONS.dir,
          label: texts[n._id] || n.name,
          children: n._children.length
            ? n._children.map(toItem)
            : [{ key: `empty:${n._id}`, label: t('shell.noMenu'), disabled: true }],
        };
      }
      return {
        key: path ?? `none:${n._id}`,
        icon: ICONS[n._type] ?? ICONS.page,
        label: texts[n._id] || n.name,
        disabled: !path,
      };
    };
    return menu.map(toItem);
  }, [menu, projectId, custom, texts, t]);
  const openKeys = useMemo(() => menu.filter((n) => n._type === 'dir').map((n) => `dir:${n._id}`), [menu]);
  const selected = useMemo(() => [pathname], [pathname]);

  if (loading && menu.length === 0) return <Spin className="shell-menu-spin" />;
  if (menu.length === 0) {
    return collapsed ? null : (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        className="shell-menu-empty"
        description={t('shell.noMenu')}
      />
    );
  }
  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      selectedKeys={selected}
      defaultOpenKeys={openKeys}
      items={items}
      onClick={({ key }) => {
        if (!key.startsWith('/')) return;
        navigate(key);
        onOpen?.();
      }}
      data-testid="app-menu"
    />
  );
}
