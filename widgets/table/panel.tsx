/** The table widget's 25 on/off toggles (its 18 and the rest of the spec's 17 features), grouped in a compact grid. */
import { Collapse, Switch } from 'antd';
import { isBinding } from '../../src/shared/expr/index.ts';
import type { PanelProps } from '../define.ts';

export const TABLE_GROUPS: { key: 'toolbar' | 'rows' | 'paging'; props: string[] }[] = [
  {
    key: 'toolbar',
    props: [
      'search',
      'filter',
      'stat',
      'refresh',
      'export',
      'label',
      'contentFilter',
      'print',
      'chart',
      'share',
    ],
  },
  {
    key: 'rows',
    props: ['select', 'multiple', 'index', 'option', 'remove', 'sort', 'group', 'tree', 'pin', 'more'],
  },
  { key: 'paging', props: ['simplePage', 'pageIndex', 'cardMode', 'view', 'rowHeight'] },
];

const GROUP_TITLES = {
  zh: { toolbar: '工具栏', rows: '行', paging: '分页与显示' },
  en: { toolbar: 'Toolbar', rows: 'Rows', paging: 'Paging and display' },
};

export function TablePanel(props: PanelProps) {
  const grouped = new Set(TABLE_GROUPS.flatMap((g) => g.props));
  const rest = Object.keys(props.def.schema.properties).filter((k) => !grouped.has(k));
  return (
    <div data-testid="custom-panel-table">
      {rest.map(props.field)}
      <Collapse
        size="small"
        defaultActiveKey={TABLE_GROUPS.map((g) => g.key)}
        items={TABLE_GROUPS.map((g) => ({
          key: g.key,
          label: GROUP_TITLES[props.lang][g.key],
          children: (
            <div className="panel-toggles">
              {g.props
                .filter((k) => k in props.def.schema.properties)
                .map((k) => {
                  const v = props.values[k];
                  // A bound toggle keeps its full field (fx and expression).
                  if (isBinding(v)) return <div key={k}>{props.field(k)}</div>;
                  return (
                    <div key={k} className="panel-toggle">
                      <Switch
                        size="small"
                        checked={v === true}
                        onChange={(on) => props.setProps({ [k]: on })}
                        data-testid={`prop-${k}`}
                        aria-label={props.label(k)}
                      />
                      <span>{props.label(k)}</span>
                    </div>
                  );
                })}
            </div>
          ),
        }))}
      />
    </div>
  );
}
