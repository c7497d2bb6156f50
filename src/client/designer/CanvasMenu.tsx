/**
 * The canvas's context menu: a right click on a widget selects it (unless it is already part of the
 * selection) and offers the selection's edit actions; on the empty page, paste. One menu for the
 * whole canvas, opened by one handler on the scroll box: nothing per widget.
 */
import { Menu } from 'antd';
import { type MouseEvent as ReactMouseEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionEnabled, EDIT_ACTIONS } from './edit-actions.ts';
import { useDesigner } from './store.ts';

export interface MenuAt {
  x: number;
  y: number;
  /** The widget right-clicked (null: the page's background). */
  id: string | null;
}

/** The context menu handler of the canvas's scroll box: where to open the menu, or null. */
export function contextMenuAt(e: ReactMouseEvent<HTMLElement>): MenuAt | null {
  const t = e.target as HTMLElement;
  if (!t.closest('.dz-page')) return null;
  e.preventDefault();
  const id = t.closest<HTMLElement>('.dz-item')?.dataset.wid ?? null;
  const st = useDesigner.getState();
  if (id && !st.selection.has(id)) st.select([id]);
  if (!id) st.select([]);
  return { x: e.clientX, y: e.clientY, id };
}

export function CanvasMenu(props: { at: MenuAt; onClose: () => void }) {
  const { t } = useTranslation();
  const { at, onClose } = props;
  const ref = useRef<HTMLDivElement>(null);
  // Fits inside the window: measured once drawn, moved up or left when it would overflow.
  const [pos, setPos] = useState({ left: at.x, top: at.y });
  useEffect(() => {
    const r = ref.current?.getBoundingClientRect();
    if (!r) return;
    setPos({
      left: Math.max(0, Math.min(at.x, window.innerWidth - r.width - 4)),
      top: Math.max(0, Math.min(at.y, window.innerHeight - r.height - 4)),
    });
  }, [at]);
  useEffect(() => {
    const away = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('pointerdown', away, true);
    window.addEventListener('wheel', away, { capture: true, passive: true });
    window.addEventListener('keydown', key, true);
    window.addEventListener('blur', onClose);
    return () => {
      window.removeEventListener('pointerdown', away, true);
      window.removeEventListener('wheel', away, true);
      window.removeEventListener('keydown', key, true);
      window.removeEventListener('blur', onClose);
    };
  }, [onClose]);
  const actions = EDIT_ACTIONS.filter((a) => (at.id ? true : a.key === 'paste'));
  return (
    <div ref={ref} className="dz-menu" style={pos} data-testid="canvas-menu">
      <Menu
        selectable={false}
        onClick={({ key }) => {
          onClose();
          actions.find((a) => a.key === key)?.run();
        }}
        items={actions.map((a) => ({
          key: a.key,
          disabled: !actionEnabled(a),
          danger: a.key === 'delete',
          label: (
            <span className="dz-menu-item" data-testid={`menu-${a.key}`}>
              <span>{t(a.label)}</span>
              {a.keys ? <span className="dz-menu-keys">{a.keys}</span> : null}
            </span>
          ),
        }))}
      />
    </div>
  );
}
