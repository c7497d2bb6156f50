/** The table widget's 18 on/off toggles, grouped (toolbar, rows, display) in a compact grid. */
import { Collapse, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { isBinding } from '../../../../shared/expr/index.ts';
import { usePanel } from '../context.ts';
import type { CustomPanelProps } from '../PropsForm.tsx';
import { type Json, labelOf } from '../schema-fields.ts';

export const TABLE_GROUPS: { key: string; props: string[] }[] = [
  { key: 'toolbar', props: ['search', 'filter', 'stat', 'refresh', 'export', 'label', 'contentFilter'] },
  { key: 'rows', props: ['select', 'multiple', 'index', 'option', 'remove', 'sort', 'group', 'tree'] },
  { key: 'paging', props: ['simplePage', 'pageIndex', 'cardMode'] },
];

export function TablePanel(props: CustomPanelProps) {
  const { t } = useTranslation();
  const { lang } = usePanel();
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
          label: t(`panel.tableGroup.${g.key}`),
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
                        aria-label={labelOf(props.def.schema.properties[k] as Json, k, lang)}
                      />
                      <span>{labelOf(props.def.schema.properties[k] as Json, k, lang)}</span>
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
