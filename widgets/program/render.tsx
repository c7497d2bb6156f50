import { Button } from 'antd';
import { bool, color, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch, useGrantedPrograms } from '../kit/widget-context.ts';

/**
 * Program buttons: auto wraps, singleLine keeps one row, eachLine puts eachLineNum per row. On a page,
 * a button whose program the user may not run is not shown (the server refuses it anyway).
 */
export function ProgramWidget({ id, props }: WidgetRenderProps) {
  const dispatch = useDispatch(id);
  const granted = useGrantedPrograms();
  const programs = list(props.program)
    .map(obj)
    .filter((p) => granted === 'all' || (granted?.has(str(p.flow)) ?? false));
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
      <div style={layout} data-testid="program-buttons" data-ready={granted === null ? 'false' : 'true'}>
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
