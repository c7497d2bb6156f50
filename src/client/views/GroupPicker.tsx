/**
 * The data view's group-by picker. Memoized, with props that keep their identity: its list stays open
 * after a pick (two fields may be chosen), and every redraw of an open list measures each option (a
 * forced layout of the whole page). Drawn with the view, it measured again as the grouped table drew
 * and again when the group sums came: most of the time from the pick to the sums on screen.
 */
import { Select } from 'antd';
import { memo, useMemo } from 'react';
import type { Field } from '../../shared/api/fields.ts';

const STYLE = { minWidth: 160 };

export const GroupPicker = memo(function GroupPicker(props: {
  fields: readonly Field[];
  value: string[];
  placeholder: string;
  onChange: (group: string[]) => void;
}) {
  const { fields } = props;
  const options = useMemo(
    () =>
      fields
        .filter((f) => f._type !== 'collection')
        .map((f) => ({ value: f._field, label: f._option.alias || f._name })),
    [fields],
  );
  return (
    <Select
      mode="multiple"
      allowClear
      maxCount={2}
      style={STYLE}
      placeholder={props.placeholder}
      data-testid="view-group"
      value={props.value}
      options={options}
      onChange={(g: string[]) => props.onChange(g.slice(0, 2))}
    />
  );
});
