/** Other people's selection of one widget: an outline in their colour on the canvas, dots in layers. */
import { memo } from 'react';
import { usePresence } from './presence-store.ts';

export const PeerOutline = memo(function PeerOutline(props: { id: string }) {
  const peers = usePresence((s) => s.byWidget.get(props.id));
  if (!peers?.length) return null;
  const color = peers[0]!.color;
  return (
    <div
      className="dz-peer"
      style={{ outlineColor: color }}
      data-testid="peer-outline"
      data-peers={peers.map((p) => p.name).join(',')}
    >
      <span className="dz-peer-tag" style={{ background: color }}>
        {peers.map((p) => p.name).join(', ')}
      </span>
    </div>
  );
});

export const PeerDots = memo(function PeerDots(props: { id: string }) {
  const peers = usePresence((s) => s.byWidget.get(props.id));
  if (!peers?.length) return null;
  return (
    <span className="dz-peer-dots" data-testid="peer-dots">
      {peers.map((p) => (
        <span key={p.clientId} className="dz-peer-dot" style={{ background: p.color }} title={p.name} />
      ))}
    </span>
  );
});
