import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useShell } from '../stores/shell.ts';

/** Recently opened menu entries as closable tags above the content (up to 10, spec §4). */
export function RecentTags() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tags = useShell((s) => s.tags);
  const close = useShell((s) => s.closeTag);
  if (tags.length === 0) return null;
  return (
    <nav className="shell-tags" aria-label={t('shell.recentTags')} data-testid="recent-tags">
      {tags.map((tag) => (
        <Tag
          key={tag.path}
          color={tag.path === pathname ? 'blue' : undefined}
          closable
          onClose={(e) => {
            e.preventDefault();
            close(tag.path);
          }}
          className="shell-tag"
        >
          <a
            href={tag.path}
            onClick={(e) => {
              e.preventDefault();
              navigate(tag.path);
            }}
          >
            {tag.name}
          </a>
        </Tag>
      ))}
    </nav>
  );
}
