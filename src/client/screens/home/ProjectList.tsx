import { List, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../api/account.ts';

/** The systems the user belongs to, with role and state. */
export function ProjectList({ projects, loading }: { projects: Project[]; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium' });
  return (
    <div data-testid="project-list">
      <List
        loading={loading}
        dataSource={projects}
        locale={{ emptyText: t('home.empty') }}
        renderItem={(p) => (
          <List.Item key={p._id} data-testid="project-item">
            <List.Item.Meta
              title={<span className="project-name">{p._name}</span>}
              description={<code>{p._id}</code>}
            />
            <div className="project-tags">
              {p.role ? <Tag color="blue">{p.role}</Tag> : null}
              {p._limited ? <Tag color="red">{t('home.limited')}</Tag> : null}
              {p._expired ? (
                <Tag>
                  {t('home.expires')} {date.format(p._expired)}
                </Tag>
              ) : null}
            </div>
          </List.Item>
        )}
      />
    </div>
  );
}
