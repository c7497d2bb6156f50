import {
  ApartmentOutlined,
  ClockCircleOutlined,
  CloudServerOutlined,
  ControlOutlined,
  DatabaseOutlined,
  FieldNumberOutlined,
  GlobalOutlined,
  MenuOutlined,
  PieChartOutlined,
  SafetyOutlined,
  SettingOutlined,
  TeamOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Menu, type MenuProps, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useAdminContext } from '../stores/admin-features.ts';
import { type AdminEntry, adminBase, currentAdminEntry, visibleAdminMenu } from './admin-menu.ts';

type Item = Required<MenuProps>['items'][number];

const ICONS: Record<string, React.ReactNode> = {
  user: <TeamOutlined />,
  auth: <SafetyOutlined />,
  menu: <MenuOutlined />,
  'data-advanced': <DatabaseOutlined />,
  schedule: <ClockCircleOutlined />,
  project: <PieChartOutlined />,
  i18n: <GlobalOutlined />,
  share: <SettingOutlined />,
  'share/selection': <UnorderedListOutlined />,
  'share/increment': <FieldNumberOutlined />,
  'share/config': <ApartmentOutlined />,
  deploy: <CloudServerOutlined />,
  features: <ControlOutlined />,
};

/**
 * The side menu inside /system (builder spec §2: "the menu is the admin list in the admin area"):
 * the screens in groups, hidden by feature flags, debug and early-access mode; the current one
 * highlighted. Collapses with the shell's sider and sits in its drawer on phones.
 */
export function AdminMenu({
  project,
  collapsed,
  onOpen,
}: {
  project: string | null;
  collapsed: boolean;
  onOpen?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const ctx = useAdminContext(project);
  const base = adminBase(pathname) ?? '/system';
  if (!ctx) return <Spin className="shell-menu-spin" />;

  const rest = pathname.slice(base.length + 1);
  const current = currentAdminEntry(rest);
  const toItem = (e: AdminEntry): Item =>
    e.children?.length
      ? {
          key: `sub:${e.path}`,
          icon: ICONS[e.path],
          label: t(e.label),
          children: e.children.map(toItem),
        }
      : ({
          key: `${base}/${e.path}`,
          icon: ICONS[e.path],
          label: t(e.label),
          'data-testid': `admin-menu-${e.path.replace('/', '-')}`,
        } as Item);
  const groups = visibleAdminMenu(ctx);
  const items: Item[] = groups.map((g) => ({
    key: `group:${g.key}`,
    type: 'group',
    label: collapsed ? null : t(g.label),
    children: g.entries.map(toItem),
  }));
  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      // A parent's own path (/system/share) shows its first child's screen.
      selectedKeys={current ? [`${base}/${current.children?.[0]?.path ?? current.path}`] : []}
      defaultOpenKeys={current?.path.startsWith('share') ? ['sub:share'] : []}
      items={items}
      onClick={({ key }) => {
        if (!key.startsWith('/')) return;
        navigate(key);
        onOpen?.();
      }}
      aria-label={t('adm3.menuLabel')}
      data-testid="admin-menu"
    />
  );
}
