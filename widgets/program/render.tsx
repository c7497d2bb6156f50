import { Button } from 'antd';
import { bool, color, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch } from '../kit/widget-context.ts';

/** Program buttons: auto wraps, singleLine keeps one row, eachLine puts eachLineNum per row. */
export function ProgramWidget({ id, props }: WidgetRenderProps) {
  const dispatch = useDispatch(id);
  const programs = list(props.program).map(obj);
  const perLine = Math.max(1, Math.min(12, Math.trunc(num(props.eachLineNum, 4))));
  const layout =
    props.sort === 'eachLine'
      ? { display: 'grid', gridTemplateColumns: `repeat(${perLine}, 1fr)`, gap: 8 }
      : {
          display: 'flex',
          flexWrap: props.sort === 'singleLine' ? ('nowrap' as const) : ('wrap' as const),
          gap: 8,
          overflowX: 'auto' as const,
        };
  return (
    <div style={{ background: bool(props.showBackground, true) ? '#fff' : 'transparent', padding: 8 }}>
      {bool(props.showTitle, true) && (
        <div style={{ fontWeight: 600, marginBottom: 8 }}>{str(props.title)}</div>
      )}
      <div style={layout}>
        {programs.map((p, i) => (
          <Button
            // biome-ignore lint/suspicious/noArrayIndexKey: the same flow may be listed twice; the list order is the identity
            key={`${str(p.flow)}-${i}`}
            style={{ background: color(p.color, '#0098FF'), color: '#fff', border: 0 }}
            onClick={() => dispatch('onProgram', { flow: str(p.flow), name: str(p.name) })}
          >
            {str(p.name)}
          </Button>
        ))}
      </div>
    </div>
  );
}
