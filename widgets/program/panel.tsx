/** Program buttons: layout props first, "per line" only when the sort is eachLine, then the button list. */
import type { PanelProps } from '../define.ts';

export function ProgramPanel(props: PanelProps) {
  const sort = props.values.sort;
  return (
    <div data-testid="custom-panel-program">
      {['title', 'showTitle', 'showBackground', 'sort'].map(props.field)}
      {sort === 'eachLine' || typeof sort === 'object' ? props.field('eachLineNum') : null}
      {props.field('program')}
    </div>
  );
}
