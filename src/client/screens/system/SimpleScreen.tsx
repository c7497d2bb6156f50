/**
 * /system/simple (builder spec §2: "simple data-table entries", early access): every data table as a
 * simple entry — open its rows in the plain data view (/system/simple/{entity}: browse, search, add,
 * edit, remove) and choose which roles get it as a simple-mode table (the role's `simple` grant).
 */
import { ArrowLeftOutlined, TableOutlined } from '@ant-design/icons';
import { App, Button, Empty, Input, List, Select, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '../../../shared/constants.ts';
import { allFeatures } from '../../../shared/view-features.ts';
import { type Role, rolesApi } from '../../api/system.ts';
import { type Entity, wb } from '../../api/workbench.ts';
import { useAdminContext } from '../../stores/admin-features.ts';
import { DataTableView } from '../../views/DataView.tsx';
import { useProject } from '../workbench/workbench-context.ts';

export default function SimpleScreen() {
  const { entity } = useParams();
  return entity ? <SimpleTable entity={entity} /> : <SimpleEntries />;
}

function useBase(): string {
  const { pathname } = useLocation();
  return pathname.slice(0, pathname.indexOf('/system') + '/system'.length);
}

function SimpleEntries() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const base = useBase();
  const p = useProject()._id;
  const [tables, setTables] = useState<Entity[] | null>(null);
  const [roles, setRoles] = useState<Role[]>([]);
  const [q, setQ] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  // Choosing roles is a grant: only while role grants are switched on (the server agrees).
  const canGrant = useAdminContext(p)?.flags['auth.grant'] === true;

  const reloadRoles = useCallback(async () => {
    setRoles((await rolesApi.list(p)).filter((r) => r.type !== 'admin'));
  }, [p]);
  useEffect(() => {
    let live = true;
    wb.entities(p).then(
      (list) => live && setTables(list),
      () => live && setTables([]),
    );
    reloadRoles().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [p, reloadRoles]);

  /** Give the table to exactly `chosen` roles in simple mode: one bind per role whose grant changes. */
  async function setRolesOf(table: Entity, chosen: string[]) {
    setBusy(table._id);
    try {
      for (const r of roles) {
        const has = r.simple.includes(table._id);
        const wants = chosen.includes(r._id);
        if (has === wants) continue;
        const simple = wants ? [...r.simple, table._id] : r.simple.filter((x) => x !== table._id);
        await rolesApi.bind(p, r._id, { simple });
      }
      message.success(t('adm4.simple.saved'));
    } finally {
      await reloadRoles().catch(() => undefined);
      setBusy(null);
    }
  }

  if (!tables) return <Spin className="center-pad" />;
  const shown = tables.filter(
    (x) => !q || x._name.toLowerCase().includes(q.toLowerCase()) || x._code.includes(q),
  );
  return (
    <div className="system-pad" data-testid="simple-screen">
      <h2 className="wb-heading">{t('adm4.simple.title')}</h2>
      <Typography.Paragraph type="secondary">{t('adm4.simple.help')}</Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input.Search
          allowClear
          placeholder={t('adm4.simple.search')}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          style={{ maxWidth: 320 }}
          data-testid="simple-search"
        />
        {shown.length === 0 ? (
          <Empty description={t('adm4.simple.none')} />
        ) : (
          <List
            bordered
            dataSource={shown}
            renderItem={(table) => {
              const granted = roles.filter((r) => r.simple.includes(table._id));
              return (
                <List.Item
                  data-testid={`simple-entry-${table._code}`}
                  className="simple-entry"
                  actions={[
                    <Button
                      key="open"
                      type="primary"
                      icon={<TableOutlined />}
                      onClick={() => navigate(`${base}/simple/${table._id}`)}
                      data-testid="simple-open"
                    >
                      {t('adm4.simple.open')}
                    </Button>,
                  ]}
                >
                  <List.Item.Meta
                    title={<span style={{ wordBreak: 'break-all' }}>{table._name}</span>}
                    description={
                      <Space direction="vertical" size={4} style={{ width: '100%' }}>
                        <Space size={[4, 4]} wrap>
                          <Tag>{table._code}</Tag>
                          {canGrant ? null : granted.length === 0 ? (
                            <Typography.Text type="secondary">{t('adm4.simple.noRoles')}</Typography.Text>
                          ) : (
                            granted.map((r) => (
                              <Tag key={r._id} color="blue">
                                {r.name}
                              </Tag>
                            ))
                          )}
                        </Space>
                        {canGrant ? (
                          <Select
                            mode="multiple"
                            allowClear
                            style={{ width: '100%', maxWidth: 420 }}
                            placeholder={t('adm4.simple.rolesPlaceholder')}
                            aria-label={t('adm4.simple.roles')}
                            value={granted.map((r) => r._id)}
                            loading={busy === table._id}
                            disabled={busy !== null}
                            onChange={(v: string[]) => void setRolesOf(table, v)}
                            options={roles.map((r) => ({ value: r._id, label: r.name }))}
                            data-testid="simple-roles"
                          />
                        ) : null}
                      </Space>
                    }
                  />
                </List.Item>
              );
            }}
          />
        )}
      </Space>
    </div>
  );
}

function SimpleTable({ entity }: { entity: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const base = useBase();
  const p = useProject()._id;
  const [table, setTable] = useState<Entity | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    wb.entities(p).then(
      (list) => live && setTable(list.find((x) => x._id === entity || x._code === entity) ?? null),
      () => live && setTable(null),
    );
    return () => {
      live = false;
    };
  }, [p, entity]);

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(`${base}/simple`)} data-testid="simple-back">
      {t('adm4.simple.back')}
    </Button>
  );
  if (table === undefined) return <Spin className="center-pad" />;
  if (table === null)
    return (
      <div className="system-pad">
        <Empty description={t('adm4.simple.unknown')} data-testid="simple-unknown">
          {back}
        </Empty>
      </div>
    );
  return (
    <div className="system-pad" data-testid="simple-table">
      <div className="wb-bar">
        <Space wrap>
          {back}
          <h2 className="wb-heading">{table._name}</h2>
        </Space>
      </div>
      <DataTableView
        key={`${p}/${table._id}`}
        project={p}
        entity={table._id}
        title={table._name}
        options={allFeatures(PAGE_SIZE_DEFAULT)}
      />
    </div>
  );
}
