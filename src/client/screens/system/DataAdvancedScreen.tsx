/**
 * /system/data-advanced (and /system/data): every data table with its advanced settings at a glance
 * (default sort, page size, row labels, switched-off view features), each opening
 * /system/data/{entity} where they are edited with the table's indexes and its roles' defaults.
 */
import { SettingOutlined } from '@ant-design/icons';
import { Button, Empty, Input, List, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import {
  readTableConfig,
  TABLE_CONFIG_PREFIX,
  type TableConfig,
} from '../../../shared/admin/table-config.ts';
import { queryShare } from '../../api/share.ts';
import { type Entity, wb } from '../../api/workbench.ts';
import { useProject } from '../workbench/workbench-context.ts';

export default function DataAdvancedScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const p = useProject()._id;
  const [tables, setTables] = useState<Entity[] | null>(null);
  const [configs, setConfigs] = useState<Map<string, TableConfig>>(new Map());
  const [q, setQ] = useState('');
  const base = pathname.slice(0, pathname.indexOf('/system') + '/system'.length);

  useEffect(() => {
    let live = true;
    Promise.all([wb.entities(p), queryShare<unknown>(p, 'config', 'project', '^table\\.')]).then(
      ([list, items]) => {
        if (!live) return;
        setTables(list);
        setConfigs(
          new Map(items.map((i) => [i._key.slice(TABLE_CONFIG_PREFIX.length), readTableConfig(i._value)])),
        );
      },
      () => live && setTables([]),
    );
    return () => {
      live = false;
    };
  }, [p]);

  if (!tables) return <Spin className="center-pad" />;
  const shown = tables.filter(
    (x) => !q || x._name.toLowerCase().includes(q.toLowerCase()) || x._code.includes(q),
  );
  return (
    <div className="data-advanced" data-testid="data-advanced">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('tadv.listHint')}</Typography.Paragraph>
        <Input.Search
          allowClear
          placeholder={t('tadv.search')}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          style={{ maxWidth: 320 }}
        />
        {shown.length === 0 ? (
          <Empty description={t('tadv.noTables')} />
        ) : (
          <List
            bordered
            dataSource={shown}
            renderItem={(table) => {
              const c = configs.get(table._id);
              return (
                <List.Item
                  data-testid={`data-table-${table._code}`}
                  actions={[
                    <Button
                      key="open"
                      icon={<SettingOutlined />}
                      onClick={() => navigate(`${base}/data/${table._id}`)}
                      data-testid="data-table-open"
                    >
                      {t('tadv.settings')}
                    </Button>,
                  ]}
                >
                  <List.Item.Meta
                    title={<span style={{ wordBreak: 'break-all' }}>{table._name}</span>}
                    description={
                      <Space size={[4, 4]} wrap>
                        <Tag>{table._code}</Tag>
                        {c?.sort ? (
                          <Tag color="blue">
                            {t('tadv.sortShort', {
                              field: c.sort.field,
                              order: t(c.sort.order === 'asc' ? 'tadv.asc' : 'tadv.desc'),
                            })}
                          </Tag>
                        ) : null}
                        {c && c.pageSize !== 20 ? (
                          <Tag>{t('tadv.pageSizeShort', { n: c.pageSize })}</Tag>
                        ) : null}
                        {c?.labels.length ? (
                          <Tag color="purple">{t('tadv.labelsShort', { n: c.labels.length })}</Tag>
                        ) : null}
                        {c?.off.length ? (
                          <Tag color="orange">{t('tadv.offShort', { n: c.off.length })}</Tag>
                        ) : null}
                        {!c ? <Typography.Text type="secondary">{t('tadv.defaults')}</Typography.Text> : null}
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
