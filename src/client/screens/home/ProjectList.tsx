import { RightOutlined } from '@ant-design/icons';
import { List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../api/account.ts';
import { dateFormat } from '../../i18n/date-format.ts';
import { roleTitle } from '../../shell/role-title.ts';
import { canBuild } from '../workbench/project-select.ts';

/**
 * The systems the user belongs to, with role and state. A system opens with a click (or Enter):
 * it becomes the one the shell shows. The id is shown to those who build the system only.
 */
export function ProjectList({
  projects,
  loading,
  current,
  onOpen,
}: {
  projects: Project[];
  loading: boolean;
  current: string | null;
  /** Absent for systems that cannot be switched to here (a custom prefix pins the system). */
  onOpen: ((p: Project) => void) | null;
}) {
  const { t, i18n } = useTranslation();
  const date = dateFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <div data-testid="project-list">
      <List
        loading={loading}
        dataSource={projects}
        locale={{ emptyText: t('home.empty') }}
        renderItem={(p) => {
          const inUse = p._id === current;
          const open = onOpen ? () => onOpen(p) : null;
          const role = roleTitle(p.role, t);
          return (
            <List.Item
              key={p._id}
              data-testid="project-item"
              data-current={inUse ? '1' : undefined}
              className={open ? 'project-item project-open' : 'project-item'}
              {...(open
                ? {
                    role: 'button',
                    tabIndex: 0,
                    'aria-label': t('home.open', { name: p._name }),
                    onClick: open,
                    onKeyDown: (e: React.KeyboardEvent) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        open();
                      }
                    },
                  }
                : {})}
            >
              <List.Item.Meta
                title={<span className="project-name">{p._name}</span>}
                description={
                  canBuild(p) ? (
                    <Typography.Text type="secondary" className="project-id">
                      {p._id}
                    </Typography.Text>
                  ) : null
                }
              />
              <div className="project-tags">
                {inUse ? <Tag color="green">{t('user.inUse')}</Tag> : null}
                {role ? (
                  <Tag color="blue" data-testid="project-role">
                    {role}
                  </Tag>
                ) : null}
                {p._limited ? <Tag color="red">{t('home.limited')}</Tag> : null}
                {p._expired ? (
                  <Tag>
                    {t('home.expires')} {date.format(p._expired)}
                  </Tag>
                ) : null}
                {open ? <RightOutlined className="project-go" aria-hidden /> : null}
              </div>
            </List.Item>
          );
        }}
      />
    </div>
  );
}
