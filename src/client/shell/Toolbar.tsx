import {
  BugOutlined,
  DesktopOutlined,
  EllipsisOutlined,
  FileTextOutlined,
  GlobalOutlined,
  HomeOutlined,
  LogoutOutlined,
  MobileOutlined,
  QuestionCircleOutlined,
  SettingOutlined,
  ToolOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { App, Button, Dropdown, List, type MenuProps, Popover, Space, Switch, Tooltip } from 'antd';
import { memo, type ReactNode, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, type NavigateFunction } from 'react-router';
import { displayName } from '../../shared/validation.ts';
import { dateFormat } from '../i18n/date-format.ts';
import { earlyAccess, onEarlyAccess, setLang, uiLangs } from '../i18n/index.ts';
import { useSession } from '../stores/session.ts';
import { useShell } from '../stores/shell.ts';
import { useWorkbench } from '../stores/workbench.ts';
import { listDrafts } from './drafts.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { homePath, withPrefix } from './navigation.ts';
import { signOut } from './session.ts';

interface Action {
  key: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
  testId: string;
}

function DraftList() {
  const { t, i18n } = useTranslation();
  const debug = useShell((s) => s.debug);
  const drafts = listDrafts(debug);
  const fmt = dateFormat(i18n.language, {
    dateStyle: 'short',
    timeStyle: 'short',
  });
  return (
    <List
      size="small"
      data-testid="drafts-list"
      locale={{ emptyText: t('shell.noDrafts') }}
      dataSource={drafts}
      renderItem={(d) => (
        <List.Item key={d.id}>
          <List.Item.Meta
            title={<Link to={`/page/${d.page}`}>{d.name}</Link>}
            description={t('shell.draftAt', { time: fmt.format(d.time) })}
          />
        </List.Item>
      )}
    />
  );
}

/**
 * The toolbar (spec §2): user center, system settings, manage mode, pc/mobile switch, logout, debug,
 * help, drafts, language, home. On phones the secondary actions fold into "More".
 *
 * Memoised, with the layout's (stable) `navigate` passed in rather than `useNavigate` here, which
 * reads the route context: moving between screens then leaves the toolbar alone instead of
 * re-rendering its buttons, tooltips and switches before the new screen's first commit.
 */
export const Toolbar = memo(function Toolbar({
  builder,
  compact,
  home,
  navigate,
}: {
  builder: boolean;
  compact: boolean;
  home: string | null;
  navigate: NavigateFunction;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const user = useSession((s) => s.user);
  const custom = useShell((s) => s.custom);
  const mode = useShell((s) => s.screenMode);
  const debug = useShell((s) => s.debug);
  const [draftsOpen, setDraftsOpen] = useState(false);
  useSyncExternalStore(onEarlyAccess, earlyAccess);

  const logout = async () => {
    await signOut();
    navigate(custom ? `/${custom}/login` : '/login', { replace: true });
  };
  const help = () =>
    modal.info({ title: t('shell.help'), content: t('shell.helpBody'), okText: t('common.ok') });
  const toDev = () => {
    useWorkbench.getState().setMode('dev');
    navigate('/dev');
  };
  const switchMode = () => useShell.getState().setScreenMode(mode === 'mobile' ? 'pc' : 'mobile');

  const secondary: Action[] = [
    ...(builder
      ? [
          {
            key: 'system',
            label: t('shell.system'),
            icon: <SettingOutlined />,
            // The administration area works on a phone too (DESIGN: admin screens usable on a phone).
            onClick: () => navigate(withPrefix('/system', custom)),
            testId: 'tool-system',
          },
        ]
      : []),
    {
      key: 'mode',
      label: mode === 'mobile' ? t('shell.toPc') : t('shell.toMobile'),
      icon: mode === 'mobile' ? <DesktopOutlined /> : <MobileOutlined />,
      onClick: switchMode,
      testId: 'tool-screen-mode',
    },
    ...(builder
      ? [
          {
            key: 'debug',
            label: debug ? t('shell.debugOff') : t('shell.debugOn'),
            icon: <BugOutlined />,
            onClick: () => useShell.getState().setDebug(!debug),
            testId: 'tool-debug',
          },
        ]
      : []),
    {
      key: 'help',
      label: t('shell.help'),
      icon: <QuestionCircleOutlined />,
      onClick: help,
      testId: 'tool-help',
    },
  ];

  if (compact) {
    const items: MenuProps['items'] = [
      ...(builder
        ? [{ key: 'manage', label: t('wb.manageMode'), icon: <ToolOutlined />, onClick: toDev }]
        : []),
      ...secondary.map((a) => ({ key: a.key, label: a.label, icon: a.icon, onClick: a.onClick })),
      {
        key: 'drafts',
        label: t('shell.drafts'),
        icon: <FileTextOutlined />,
        onClick: () => setDraftsOpen(true),
      },
      {
        key: 'lang',
        label: t('lang.label'),
        icon: <GlobalOutlined />,
        children: uiLangs().map((l) => ({
          key: `lang-${l}`,
          label: t(`lang.${l}`),
          onClick: () => setLang(l),
        })),
      },
      { type: 'divider' },
      { key: 'logout', label: t('shell.logout'), icon: <LogoutOutlined />, onClick: () => void logout() },
    ];
    return (
      <Space size={4} className="shell-tools">
        <Button
          type="text"
          icon={<HomeOutlined />}
          aria-label={t('shell.home')}
          onClick={() => navigate(homePath(home, custom), { replace: true })}
        />
        <Button
          type="text"
          icon={<UserOutlined />}
          aria-label={t('shell.userCenter')}
          onClick={() => navigate(withPrefix('/user', custom))}
          data-testid="tool-user"
        />
        <Dropdown menu={{ items }} trigger={['click']}>
          <Button
            type="text"
            icon={<EllipsisOutlined />}
            aria-label={t('shell.more')}
            data-testid="tool-more"
          />
        </Dropdown>
        <Popover
          open={draftsOpen}
          onOpenChange={setDraftsOpen}
          trigger="click"
          title={t('shell.drafts')}
          content={<DraftList />}
          placement="bottomRight"
        >
          <span />
        </Popover>
      </Space>
    );
  }

  return (
    <Space wrap size={4} className="shell-tools">
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
      <Tooltip title={t('shell.home')}>
        <Button
          type="text"
          icon={<HomeOutlined />}
          aria-label={t('shell.home')}
          onClick={() => navigate(homePath(home, custom), { replace: true })}
          data-testid="tool-home"
        />
      </Tooltip>
      {secondary.map((a) => (
        <Tooltip key={a.key} title={a.label}>
          <Button
            type="text"
            icon={a.icon}
            aria-label={a.label}
            onClick={a.onClick}
            data-testid={a.testId}
            className={a.key === 'debug' && debug ? 'shell-tool-on' : undefined}
          />
        </Tooltip>
      ))}
      <Popover trigger="click" title={t('shell.drafts')} content={<DraftList />} placement="bottomRight">
        <Tooltip title={t('shell.drafts')}>
          <Button
            type="text"
            icon={<FileTextOutlined />}
            aria-label={t('shell.drafts')}
            data-testid="tool-drafts"
          />
        </Tooltip>
      </Popover>
      <LanguageSwitch />
      <Button
        type="text"
        icon={<UserOutlined />}
        onClick={() => navigate(withPrefix('/user', custom))}
        data-testid="current-user"
      >
        {user ? displayName(user) : ''}
      </Button>
      <Button size="small" icon={<LogoutOutlined />} onClick={() => void logout()} data-testid="logout">
        {t('shell.logout')}
      </Button>
    </Space>
  );
});
