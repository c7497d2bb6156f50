import { AppstoreOutlined, FileOutlined, TableOutlined } from '@ant-design/icons';
import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RECENT_TOP } from '../../../shared/constants.ts';
import { findEntry, topUsed } from '../../shell/menu.ts';
import { menuPath } from '../../shell/navigation.ts';
import { useShell } from '../../stores/shell.ts';

const ICONS: Record<string, React.ReactNode> = {
  table: <TableOutlined />,
  page: <FileOutlined />,
  display: <AppstoreOutlined />,
};

/** The top 4 recently used menu entries still in the user's menu (spec §4). */
export function RecentUsed() {
  const { t } = useTranslation();
  const recent = useShell((s) => s.recent);
  const menu = useShell((s) => s.menu);
  const projectId = useShell((s) => s.projectId);
  const custom = useShell((s) => s.custom);
  const top = topUsed(recent, (id) => findEntry(menu, (n) => n._id === id) !== null, RECENT_TOP);
  return (
    <Card title={t('shell.recentUsed')} className="home-card" data-testid="recent-used">
      {top.length === 0 || !projectId ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('shell.noRecent')} />
      ) : (
        <div className="recent-grid">
          {top.map((item) => {
            const entry = findEntry(menu, (n) => n._id === item.id)!;
            const path = menuPath(entry, projectId, custom);
            return path ? (
              <Link key={item.id} to={path} className="recent-item">
                <span className="recent-icon">{ICONS[entry._type] ?? <FileOutlined />}</span>
                <span>{entry.name}</span>
              </Link>
            ) : null;
          })}
        </div>
      )}
    </Card>
  );
}
