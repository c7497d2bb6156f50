/**
 * /system/data/{entity}: one table's advanced settings (builder spec §2). View settings — default
 * sort, row height, page size, row labels (colour by condition), view features switched off for
 * everyone — kept in the shared store (`config`/`project`/`table.{entity}`, checked by the server:
 * shared/admin/table-config.ts); indexes on chosen fields, built and dropped as real indexes; and
 * each role's default filter and allowed programs of this table (the same popups as /system/auth).
 */
import { ArrowLeftOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Checkbox,
  Empty,
  Form,
  Input,
  List,
  Result,
  Select,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import {
  DEFAULT_TABLE_CONFIG,
  readTableConfig,
  TABLE_LABEL_COLORS,
  TABLE_LABEL_OPS,
  TABLE_LABELS_MAX,
  TABLE_PAGE_SIZES,
  TABLE_ROW_HEIGHTS,
  type TableConfig,
  type TableLabel,
  tableConfigKey,
} from '../../../shared/admin/table-config.ts';
import { VIEW_FEATURES } from '../../../shared/view-features.ts';
import { menusApi } from '../../api/pages.ts';
import { fetchShare, forgetShare, setShare } from '../../api/share.ts';
import { type Role, rolesApi } from '../../api/system.ts';
import { type Entity, type Field, wb } from '../../api/workbench.ts';
import { TableIndexesCard } from '../../views/TableIndexes.tsx';
import { useProject } from '../workbench/workbench-context.ts';
import { RoleTableModal } from './RoleTableConfig.tsx';

export default function DataTableScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { entity = '' } = useParams();
  const p = useProject()._id;
  const base = pathname.slice(0, pathname.indexOf('/system') + '/system'.length);
  const [table, setTable] = useState<Entity | null | undefined>(undefined);
  const [fields, setFields] = useState<Field[]>([]);

  useEffect(() => {
    let live = true;
    setTable(undefined);
    wb.entities(p).then(
      async (list) => {
        const found = list.find((e) => e._id === entity || e._code === entity) ?? null;
        if (found) {
          const fs = await wb.fields(p, found._id);
          if (live) setFields(fs);
        }
        if (live) setTable(found);
      },
      () => live && setTable(null),
    );
    return () => {
      live = false;
    };
  }, [p, entity]);

  if (table === undefined) return <Spin className="center-pad" />;
  if (table === null)
    return (
      <Result
        status="404"
        title={t('tadv.noSuchTable')}
        extra={<Button onClick={() => navigate(`${base}/data-advanced`)}>{t('tadv.back')}</Button>}
      />
    );
  return (
    <div className="data-table-settings" data-testid="data-table-settings">
      <Space style={{ marginBottom: 12 }} wrap>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(`${base}/data-advanced`)}>
          {t('tadv.back')}
        </Button>
        <Typography.Title level={4} style={{ margin: 0, wordBreak: 'break-all' }}>
          {table._name} <Tag>{table._code}</Tag>
        </Typography.Title>
      </Space>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <ViewSettingsCard project={p} table={table} fields={fields} />
        <TableIndexesCard project={p} table={table._id} fields={fields} />
        <RoleDefaultsCard project={p} table={table} />
      </Space>
    </div>
  );
}

const fieldOptions = (fields: Field[]) => fields.map((f) => ({ value: f._field, label: f._name }));

function ViewSettingsCard({ project, table, fields }: { project: string; table: Entity; fields: Field[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ref = useMemo(
    () => ({ model: 'config', type: 'project' as const, key: tableConfigKey(table._id) }),
    [table._id],
  );
  const [cfg, setCfg] = useState<TableConfig | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    forgetShare(project, ref);
    fetchShare(project, ref).then(
      (v) => live && setCfg(v === null ? { ...DEFAULT_TABLE_CONFIG } : readTableConfig(v)),
      () => live && setCfg({ ...DEFAULT_TABLE_CONFIG }),
    );
    return () => {
      live = false;
    };
  }, [project, ref]);

  if (!cfg) return <Card loading />;
  const set = (patch: Partial<TableConfig>) => setCfg({ ...cfg, ...patch });
  const setLabel = (i: number, patch: Partial<TableLabel>) =>
    set({ labels: cfg.labels.map((l, j) => (j === i ? { ...l, ...patch } : l)) });

  async function save() {
    if (!cfg) return;
    setBusy(true);
    try {
      // Conditions without a value (other than empty / not empty) are not labels yet: dropped.
      const labels = cfg.labels.filter(
        (l) => l.field && (l.opt === 'isnull' || l.opt === 'notnull' || l.value),
      );
      await setShare(project, ref, { ...cfg, labels });
      setCfg({ ...cfg, labels });
      message.success(t('tadv.saved'));
    } catch {
      // The request wrapper showed the coded error.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card
      title={t('tadv.viewTitle')}
      size="small"
      data-testid="table-view-settings"
      extra={
        <Button type="primary" loading={busy} onClick={() => void save()} data-testid="table-settings-save">
          {t('common.save')}
        </Button>
      }
    >
      <Form layout="vertical">
        <Form.Item label={t('tadv.defaultSort')}>
          <Space.Compact style={{ width: '100%', maxWidth: 420 }}>
            <Select
              allowClear
              style={{ flex: 1 }}
              placeholder={t('tadv.noSort')}
              value={cfg.sort?.field}
              options={fieldOptions(fields)}
              onChange={(field?: string) =>
                set({ sort: field ? { field, order: cfg.sort?.order ?? 'asc' } : null })
              }
              data-testid="table-sort-field"
            />
            <Select
              style={{ width: 120 }}
              disabled={!cfg.sort}
              value={cfg.sort?.order ?? 'asc'}
              options={[
                { value: 'asc', label: t('tadv.asc') },
                { value: 'desc', label: t('tadv.desc') },
              ]}
              onChange={(order: 'asc' | 'desc') => cfg.sort && set({ sort: { ...cfg.sort, order } })}
              data-testid="table-sort-order"
            />
          </Space.Compact>
        </Form.Item>
        <Space wrap size="large">
          <Form.Item label={t('tadv.rowHeight')}>
            <Select
              style={{ width: 140 }}
              value={cfg.rowHeight}
              options={TABLE_ROW_HEIGHTS.map((h) => ({ value: h, label: t(`views.heights.${h}`) }))}
              onChange={(rowHeight) => set({ rowHeight })}
              data-testid="table-row-height"
            />
          </Form.Item>
          <Form.Item label={t('tadv.pageSize')}>
            <Select
              style={{ width: 120 }}
              value={cfg.pageSize}
              options={TABLE_PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))}
              onChange={(pageSize) => set({ pageSize })}
              data-testid="table-page-size"
            />
          </Form.Item>
        </Space>
        <Form.Item label={t('tadv.featuresOff')} extra={t('tadv.featuresOffHint')}>
          <Checkbox.Group
            value={cfg.off}
            onChange={(v) => set({ off: v as string[] })}
            options={VIEW_FEATURES.map((f) => ({ value: f, label: t(`tadv.feat.${f}`) }))}
            data-testid="table-features-off"
          />
        </Form.Item>
        <Form.Item label={t('tadv.labels')} extra={t('tadv.labelsHint')}>
          <Space direction="vertical" style={{ width: '100%' }}>
            {cfg.labels.map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
              <Space key={i} wrap data-testid="table-label-row">
                <Select
                  style={{ width: 140 }}
                  value={l.field || undefined}
                  placeholder={t('tadv.field')}
                  options={fieldOptions(fields)}
                  onChange={(field: string) => setLabel(i, { field })}
                />
                <Select
                  style={{ width: 120 }}
                  value={l.opt}
                  options={TABLE_LABEL_OPS.map((o) => ({ value: o, label: t(`tadv.ops.${o}`) }))}
                  onChange={(opt) => setLabel(i, { opt })}
                />
                {l.opt === 'isnull' || l.opt === 'notnull' ? null : (
                  <Input
                    style={{ width: 140 }}
                    maxLength={200}
                    value={l.value ?? ''}
                    placeholder={t('tadv.value')}
                    onChange={(e) => setLabel(i, { value: e.target.value })}
                  />
                )}
                <Select
                  style={{ width: 110 }}
                  value={l.color}
                  options={TABLE_LABEL_COLORS.map((c) => ({ value: c, label: <Tag color={c}>{c}</Tag> }))}
                  onChange={(color) => setLabel(i, { color })}
                />
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('common.remove')}
                  onClick={() => set({ labels: cfg.labels.filter((_, j) => j !== i) })}
                />
              </Space>
            ))}
            <Button
              icon={<PlusOutlined />}
              disabled={cfg.labels.length >= TABLE_LABELS_MAX || fields.length === 0}
              onClick={() =>
                set({
                  labels: [
                    ...cfg.labels,
                    { field: fields[0]?._field ?? '', opt: 'eq', value: '', color: 'red' },
                  ],
                })
              }
              data-testid="table-label-add"
            >
              {t('tadv.addLabel')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}

function RoleDefaultsCard({ project, table }: { project: string; table: Entity }) {
  const { t } = useTranslation();
  const [roles, setRoles] = useState<Role[] | null>(null);
  const [programs, setPrograms] = useState<{ _id: string; _name: string }[]>([]);
  const [popup, setPopup] = useState<{ role: Role; kind: 'filter' | 'programs' } | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([rolesApi.list(project), menusApi.flows(project)]).then(
      ([rs, flows]) => {
        if (!live) return;
        setRoles(rs.filter((r) => r.type !== 'admin'));
        setPrograms(flows.filter((f) => f._type === 'program'));
      },
      () => live && setRoles([]),
    );
    return () => {
      live = false;
    };
  }, [project]);
  const close = useCallback(() => setPopup(null), []);
  return (
    <Card title={t('tadv.rolesTitle')} size="small" data-testid="table-role-defaults">
      <Typography.Paragraph type="secondary">{t('tadv.rolesHint')}</Typography.Paragraph>
      {!roles ? (
        <Spin />
      ) : roles.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sys.nothing')} />
      ) : (
        <List
          size="small"
          dataSource={roles}
          renderItem={(role) => (
            <List.Item
              actions={[
                <Button key="f" size="small" onClick={() => setPopup({ role, kind: 'filter' })}>
                  {t('tadv.defaultFilter')}
                </Button>,
                <Button key="p" size="small" onClick={() => setPopup({ role, kind: 'programs' })}>
                  {t('tadv.allowedPrograms')}
                </Button>,
              ]}
            >
              {role.name}
            </List.Item>
          )}
        />
      )}
      {popup ? (
        <RoleTableModal
          project={project}
          role={popup.role}
          table={table}
          kind={popup.kind}
          programs={programs}
          onClose={close}
        />
      ) : null}
    </Card>
  );
}
