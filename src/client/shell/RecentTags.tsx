import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { type NavigateFunction, useLocation } from 'react-router';
import { useShell } from '../stores/shell.ts';

/**
 * Recently opened menu entries as closable tags above the content (up to 10, spec §4). Takes the
 * frame's stable `navigate` (as the side menu does): it draws again when the path or the tags change.
 */
export function RecentTags({ navigate }: { navigate: NavigateFunction }) {
  const { t } = useTranslation();
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
