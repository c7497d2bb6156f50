/**
 * A row's edit / remove / more buttons. Drawn for every row that scrolls into view, so they are plain
 * buttons (no antd Button per row) with plain icons (row-icons.tsx), and the "more" menu becomes a
 * Dropdown only once it is opened.
 */
import { Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { DELETE_ICON, EDIT_ICON, MORE_ICON } from './row-icons.tsx';

export interface RowActionsProps {
  labels: { edit: string; remove: string; more: string };
  onEdit?: (() => void) | undefined;
  onRemove?: (() => void) | undefined;
  /** The more menu's items and what picking one does. */
  more?: { items: NonNullable<MenuProps['items']>; onPick(key: string): void } | undefined;
}

export function RowActions({ labels, onEdit, onRemove, more }: RowActionsProps) {
  return (
    // The row's own click opens the detail: a click on an action does not.
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: only stops the row's click
    <div className="dv-acts" onClick={(e) => e.stopPropagation()}>
      {onEdit ? (
        <button
          type="button"
          className="dv-act"
          aria-label={labels.edit}
          data-testid="row-edit"
          onClick={onEdit}
        >
          {EDIT_ICON}
        </button>
      ) : null}
      {onRemove ? (
        <button
          type="button"
          className="dv-act dv-act-danger"
          aria-label={labels.remove}
          data-testid="row-remove"
          onClick={onRemove}
        >
          {DELETE_ICON}
        </button>
      ) : null}
      {more ? <MoreMenu label={labels.more} {...more} /> : null}
    </div>
  );
}

function MoreMenu(props: {
  label: string;
  items: NonNullable<MenuProps['items']>;
  onPick(key: string): void;
}) {
  const [open, setOpen] = useState(false);
  const button = (
    <button
      type="button"
      className="dv-act"
      aria-label={props.label}
      aria-haspopup="menu"
      aria-expanded={open}
      data-testid="row-more"
      onClick={open ? undefined : () => setOpen(true)}
    >
      {MORE_ICON}
    </button>
  );
  if (!open) return button;
  return (
    <Dropdown
      open
      trigger={['click']}
      onOpenChange={(o) => {
        if (!o) setOpen(false);
      }}
      menu={{
        items: props.items,
        onClick: ({ key }) => {
          setOpen(false);
          props.onPick(key);
        },
      }}
    >
      {button}
    </Dropdown>
  );
}
