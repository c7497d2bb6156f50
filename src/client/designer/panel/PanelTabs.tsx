/**
 * The panels' tabs (Properties / Events, desktop / mobile layout): a plain tab bar. antd's Tabs
 * measures every tab with getBoundingClientRect when it mounts (for its ink bar and overflow menu),
 * and the inspector mounts its tabs each time the selection moves to another kind of panel: on a
 * canvas of 1,000 widgets each of those reads forced a layout of the whole page in the middle of the
 * designer's update. Two or three short labels need neither an ink bar animation nor an overflow menu.
 * Panes once shown stay mounted (hidden) like antd's, so a half-edited pane keeps its state.
 */
import { type KeyboardEvent, type ReactNode, useId, useState } from 'react';

export interface PanelTab {
  key: string;
  label: ReactNode;
  children: ReactNode;
}

export function PanelTabs(props: { items: PanelTab[]; defaultActiveKey?: string }) {
  const { items } = props;
  const [active, setActive] = useState(props.defaultActiveKey ?? items[0]?.key);
  const [visited, setVisited] = useState<ReadonlySet<string | undefined>>(() => new Set([active]));
  const id = useId();
  const current = items.some((t) => t.key === active) ? active : items[0]?.key;
  const show = (key: string) => {
    setActive(key);
    if (!visited.has(key)) setVisited(new Set([...visited, key]));
  };
  // Arrow keys move between tabs (WAI-ARIA tabs pattern); Home and End go to the ends.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = items.findIndex((t) => t.key === current);
    const to =
      e.key === 'ArrowRight'
        ? (i + 1) % items.length
        : e.key === 'ArrowLeft'
          ? (i - 1 + items.length) % items.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? items.length - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    const key = items[to]!.key;
    show(key);
    document.getElementById(`${id}-tab-${key}`)?.focus();
  };
  return (
    <div className="panel-tabs">
      <div className="panel-tab-bar" role="tablist" onKeyDown={onKeyDown}>
        {items.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`${id}-tab-${t.key}`}
            aria-selected={t.key === current}
            aria-controls={`${id}-pane-${t.key}`}
            tabIndex={t.key === current ? 0 : -1}
            className={`panel-tab${t.key === current ? ' panel-tab-active' : ''}`}
            onClick={() => show(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {items.map((t) =>
        t.key === current || visited.has(t.key) ? (
          <div
            key={t.key}
            role="tabpanel"
            id={`${id}-pane-${t.key}`}
            aria-labelledby={`${id}-tab-${t.key}`}
            hidden={t.key !== current}
            className="panel-tab-pane"
          >
            {t.children}
          </div>
        ) : null,
      )}
    </div>
  );
}
