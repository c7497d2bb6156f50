/** Who is on the page (avatars in their colours) and the connection state, for the designer toolbar. */
import { Avatar, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CollabSnapshot } from './session.ts';

const STATUS_COLOR: Record<CollabSnapshot['status'], string> = {
  connecting: 'processing',
  connected: 'success',
  offline: 'warning',
  unavailable: 'warning',
  signedOut: 'error',
  denied: 'error',
  removed: 'error',
};

function initials(name: string): string {
  const t = name.trim();
  return t ? [...t][0]!.toUpperCase() : '?';
}

export function PresenceBar({ state }: { state: CollabSnapshot }) {
  const { t } = useTranslation();
  return (
    <span className="dz-presence" data-testid="presence">
      <Avatar.Group max={{ count: 6 }} size="small">
        {state.peers.map((p) => (
          <Tooltip key={p.clientId} title={p.self ? t('collab.you', { name: p.name }) : p.name}>
            <Avatar
              size="small"
              style={{ background: p.color, outline: p.self ? '2px solid #fff' : undefined }}
              data-testid="presence-peer"
              data-user={p.userId}
            >
              {initials(p.name)}
            </Avatar>
          </Tooltip>
        ))}
      </Avatar.Group>
      <Tag color={STATUS_COLOR[state.status]} data-testid="collab-status" data-status={state.status}>
        {t(`collab.status.${state.status}`)}
      </Tag>
      {state.readOnly ? (
        <Tag color="default" data-testid="collab-readonly">
          {t('collab.readOnly')}
        </Tag>
      ) : null}
    </span>
  );
}
