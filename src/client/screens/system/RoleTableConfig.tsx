/**
 * A role's advanced settings per data table (builder spec §2 permission management: "per-table
 * advanced config: default filters and allowed functions in popups"). The default filter is edited
 * with the data views' FilterBuilder and applied by the server to every read of the role's members
 * (they see it as a fixed chip, in the words shown here too); the allowed programs are the only ones the role's members get as
 * that table's program buttons, and the only ones the server runs on it for them.
 */
import { FilterOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Alert, App, Button, Checkbox, Empty, List, Modal, Space, Spin, Switch, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FILTER_TEXT, FilterControl } from '../../../../widgets/kit/FilterControl.tsx';
import { type Condition, completeConditions, type Match } from '../../../shared/query/conditions.ts';
import { type Role, type RoleTableSettings, roleTablesApi } from '../../api/system.ts';
import type { Entity, Field } from '../../api/workbench.ts';
import { wb } from '../../api/workbench.ts';
import { roleFilterText } from '../../views/role-filter-text.ts';

type Popup = { kind: 'filter' | 'programs'; table: Entity } | null;

export function RoleTablesPanel(props: {
  project: string;
  role: Role;
  tables: Entity[];
  programs: { _id: string; _name: string }[];
}) {
  const { t } = useTranslation();
  const [popup, setPopup] = useState<Popup>(null);
  const builder = props.role.type === 'admin';
  return (
    <div className="role-tables" data-testid="role-tables">
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('tadv.roleTitle')}
      </Typography.Title>
      {builder ? (
        <Alert type="info" showIcon message={t('tadv.builderHint')} style={{ marginBottom: 8 }} />
      ) : null}
      {props.tables.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sys.nothing')} />
      ) : (
        <List
          size="small"
          dataSource={props.tables}
          renderItem={(table) => (
            <List.Item
              data-testid={`role-table-${table._code}`}
              actions={[
                <Button
                  key="f"
                  size="small"
                  icon={<FilterOutlined />}
                  onClick={() => setPopup({ kind: 'filter', table })}
                  data-testid="role-table-filter"
                >
                  {t('tadv.defaultFilter')}
                </Button>,
                <Button
                  key="p"
                  size="small"
                  icon={<ThunderboltOutlined />}
                  onClick={() => setPopup({ kind: 'programs', table })}
                  data-testid="role-table-programs"
                >
                  {t('tadv.allowedPrograms')}
                </Button>,
              ]}
            >
              <span style={{ wordBreak: 'break-all' }}>{table._name}</span>
            </List.Item>
          )}
        />
      )}
      {popup ? (
        <RoleTableModal
          project={props.project}
          role={props.role}
          table={popup.table}
          kind={popup.kind}
          programs={props.programs}
          onClose={() => setPopup(null)}
        />
      ) : null}
    </div>
  );
}

let condId = 1;

export function RoleTableModal(props: {
  project: string;
  role: Role;
  table: Entity;
  kind: 'filter' | 'programs';
  programs: { _id: string; _name: string }[];
  onClose(): void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const { message } = App.useApp();
  const { project, role, table } = props;
  const [settings, setSettings] = useState<RoleTableSettings | null>(null);
  const [fields, setFields] = useState<Field[]>([]);
  const [limit, setLimit] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const closeRef = useRef(props.onClose);
  closeRef.current = props.onClose;

  useEffect(() => {
    let live = true;
    Promise.all([roleTablesApi.get(project, role._id, table._id), wb.fields(project, table._id)]).then(
      ([s, fs]) => {
        if (!live) return;
        setSettings(s);
        setFields(fs);
        setLimit(s.programs !== null);
        setChosen(s.programs ?? []);
      },
      () => live && closeRef.current(),
    );
    return () => {
      live = false;
    };
  }, [project, role._id, table._id]);

  const condFields = fields.map((f) => ({ key: f._field, name: f._option.alias || f._name, type: f._type }));

  async function saveFilter(conditions: Condition[], match: Match) {
    setBusy(true);
    try {
      // Rows still without a value are not conditions yet (the data view drops them the same way).
      const done = completeConditions(conditions, condFields);
      const filter = done.length
        ? {
            conditions: done.map(({ field, opt, value }) => ({
              field,
              opt,
              ...(value === undefined ? {} : { value }),
            })),
            match,
          }
        : null;
      await roleTablesApi.setFilter(project, role._id, table._id, filter);
      setSettings((s) => (s ? { ...s, filter, unusable: false } : s));
      message.success(t(filter ? 'tadv.filterSaved' : 'tadv.filterCleared'));
    } catch {
      // The request wrapper showed the coded error.
    } finally {
      setBusy(false);
    }
  }

  async function savePrograms() {
    setBusy(true);
    try {
      await roleTablesApi.setPrograms(project, role._id, table._id, limit ? chosen : null);
      message.success(t('tadv.programsSaved'));
      props.onClose();
    } catch {
      // Shown by the request wrapper.
    } finally {
      setBusy(false);
    }
  }

  const title =
    props.kind === 'filter'
      ? t('tadv.filterTitle', { role: role.name, table: table._name })
      : t('tadv.programsTitle', { role: role.name, table: table._name });
  return (
    <Modal
      open
      title={title}
      onCancel={props.onClose}
      width={600}
      data-testid={`role-table-${props.kind}-modal`}
      footer={
        props.kind === 'programs' ? (
          <Space>
            <Button onClick={props.onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={busy}
              disabled={!settings}
              onClick={() => void savePrograms()}
              data-testid="role-programs-save"
            >
              {t('common.save')}
            </Button>
          </Space>
        ) : (
          <Button onClick={props.onClose} data-testid="role-filter-close">
            {t('common.close')}
          </Button>
        )
      }
    >
      {!settings ? (
        <Spin className="center-pad" />
      ) : props.kind === 'filter' ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">
            {t('tadv.filterHint', { apply: FILTER_TEXT[lang].apply })}
          </Typography.Text>
          {settings.unusable ? <Alert type="warning" showIcon message={t('tadv.filterUnusable')} /> : null}
          {settings.filter ? (
            <Tag color="blue" data-testid="role-filter-current">
              {roleFilterText(settings.filter, fields, lang)}
            </Tag>
          ) : (
            <Tag data-testid="role-filter-current">{t('tadv.noFilter')}</Tag>
          )}
          <Spin spinning={busy}>
            <FilterControl
              fields={condFields}
              lang={lang}
              value={{
                conditions: (settings.filter?.conditions ?? []).map((c) => ({ ...c, id: condId++ })),
                match: settings.filter?.match ?? 'and',
              }}
              onApply={(v) => void saveFilter(v.conditions, v.match)}
            />
          </Spin>
        </Space>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space>
            <Switch checked={limit} onChange={setLimit} data-testid="role-programs-limit" />
            {t('tadv.limitPrograms')}
          </Space>
          <Typography.Text type="secondary">{t(limit ? 'tadv.limitOn' : 'tadv.limitOff')}</Typography.Text>
          {props.programs.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sys.nothing')} />
          ) : (
            <Checkbox.Group
              disabled={!limit}
              value={chosen}
              onChange={(v) => setChosen(v as string[])}
              options={props.programs.map((p) => ({ value: p._id, label: p._name }))}
              className="grant-list"
              data-testid="role-programs-list"
            />
          )}
        </Space>
      )}
    </Modal>
  );
}
