import { useEffect } from 'react';
import { options, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useRuntime, useWidgetValue } from '../kit/widget-context.ts';

/** A row (or a side column) of tabs; the chosen one is underlined (or marked) in the active colour. */
export function TabsWidget({ id, props }: WidgetRenderProps) {
  const rt = useRuntime();
  const initial = str(props.value);
  const [value, setValue] = useWidgetValue<string>(id, initial);
  // The value is there for expressions from the start (a card list filtered by it), not only after a pick.
  useEffect(() => {
    if (rt.values[id] === undefined) rt.setValue(id, initial);
  }, [rt, id, initial]);
  const vertical = props.orientation === 'vertical';
  const color = str(props.color, '#e4393c');
  return (
    <div
      role="tablist"
      className="lc-tabs"
      aria-orientation={vertical ? 'vertical' : 'horizontal'}
      style={{
        display: 'flex',
        flexDirection: vertical ? 'column' : 'row',
        background: vertical ? '#f7f8fa' : '#ffffff',
        height: '100%',
        overflowX: vertical ? 'hidden' : 'auto',
      }}
    >
      {options(props.options).map((o) => {
        const on = o.value === value;
        return (
          <button
            key={o.value}
            type="button"
            role="tab"
            aria-selected={on}
            onClick={() => setValue(o.value)}
            style={{
              flex: vertical ? 'none' : '1 0 auto',
              border: 0,
              cursor: 'pointer',
              background: vertical && on ? '#ffffff' : 'transparent',
              color: on ? color : '#333333',
              fontWeight: on ? 600 : 400,
              fontSize: 14,
              padding: vertical ? '16px 8px' : '10px 12px',
              borderBottom: !vertical && on ? `2px solid ${color}` : '2px solid transparent',
              borderLeft: vertical ? `3px solid ${on ? color : 'transparent'}` : 0,
              textAlign: 'center',
            }}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
