/**
 * A table's indexes, as builders manage them (server data/auto-index.ts): the ones the server built
 * for recurring slow queries and the ones a builder asked for, each with its use count; pin one (kept
 * even when unused) or drop one; build one on 1–3 chosen fields. One component for both places that
 * show it: the workbench's table screen (/dev/data/{entity}, Indexes tab) and the owner's
 * /system/data/{entity}. The table's rollups (server data/rollup.ts: per-group counts and sums kept
 * for slow grouped summaries) are listed below the indexes with their use counts, pinned and dropped
 * the same way.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Empty,
  List,
  Popconfirm,
  Select,
  Space,
  Spin,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TableIndex, type TableRollup, tableIndexesApi } from '../api/system.ts';

interface Props {
  project: string;
  /** The table's id. */
  table: string;
  /** The table's fields (those that may be indexed are offered). */
  fields: ReadonlyArray<{ _field: string; _name: string; _type: string }>;
}

export function TableIndexesCard({ project, table, fields }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [list, setList] = useState<TableIndex[] | null>(null);
  const [limit, setLimit] = useState(6);
  const [rollups, setRollups] = useState<TableRollup[]>([]);
  const [rollupLimit, setRollupLimit] = useState(3);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const reload = useCallback(() => {
    tableIndexesApi.list(project, table).then(
      (r) => {
        setList(r.indexes);
        setLimit(r.limit);
        setRollups(r.rollups ?? []);
        setRollupLimit(r.rollupLimit ?? 3);
      },
      () => {
        setList([]);
        setRollups([]);
      },
    );
  }, [project, table]);
  useEffect(reload, [reload]);
  const indexable = fields.filter((f) => f._type !== 'collection' && f._type !== 'options');

  async function create() {
    setBusy(true);
    try {
      await tableIndexesApi.create(project, table, chosen);
      message.success(t('tadv.indexBuilt'));
      setChosen([]);
      reload();
    } catch {
      // Shown by the request wrapper.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card
      title={t('tadv.indexesTitle')}
      size="small"
      data-testid="table-indexes"
      extra={
        <Button size="small" onClick={reload} data-testid="index-reload">
          {t('tadv.indexReload')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('tadv.indexesHint', { n: limit })}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%', maxWidth: 520, marginBottom: 12 }}>
        <Select
          mode="multiple"
          maxCount={3}
          style={{ flex: 1 }}
          placeholder={t('tadv.indexFields')}
          value={chosen}
          onChange={setChosen}
          options={indexable.map((f) => ({ value: f._field, label: f._name }))}
          data-testid="index-fields"
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          loading={busy}
          disabled={chosen.length === 0 || (list?.length ?? 0) >= limit}
          onClick={() => void create()}
          data-testid="index-create"
        >
          {t('tadv.indexCreate')}
        </Button>
      </Space.Compact>
      {!list ? (
        <Spin />
      ) : list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tadv.noIndexes')} />
      ) : (
        <List
          size="small"
          dataSource={list}
          renderItem={(ix) => (
            <List.Item
              data-testid="index-row"
              data-kind={ix.kind}
              actions={[
                <Switch
                  key="pin"
                  size="small"
                  checked={ix.pinned}
                  checkedChildren={t('tadv.pinned')}
                  unCheckedChildren={t('tadv.unpinned')}
                  onChange={(pinned) =>
                    tableIndexesApi.pin(project, table, ix._id, pinned).then(reload, reload)
                  }
                  data-testid="index-pin"
                />,
                <Popconfirm
                  key="rm"
                  title={t('tadv.indexRemoveConfirm')}
                  onConfirm={() => tableIndexesApi.remove(project, table, ix._id).then(reload, reload)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} data-testid="index-remove">
                    {t('common.remove')}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <Space wrap size={[4, 4]}>
                {ix.fields.map((f) => (
                  <Tag key={f.field}>
                    {f.name ?? f.field}
                    {f.order ? ` ${f.order}` : ''}
                  </Tag>
                ))}
                <Typography.Text type="secondary">
                  {t(ix.kind === 'manual' ? 'tadv.byBuilder' : 'tadv.byServer')} ·{' '}
                  <span data-testid="index-uses">{t('tadv.uses', { n: ix.uses })}</span>
                  {ix.uses > 0
                    ? ` · ${t('tadv.lastUsed', { at: new Date(ix.lastUsedAt).toLocaleString() })}`
                    : ''}
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      )}
      {rollups.length > 0 && (
        <>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('tadv.rollupsTitle')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">
            {t('tadv.rollupsHint', { n: rollupLimit })}
          </Typography.Paragraph>
          <List
            size="small"
            dataSource={rollups}
            renderItem={(rx) => (
              <List.Item
                data-testid="rollup-row"
                actions={[
                  <Switch
                    key="pin"
                    size="small"
                    checked={rx.pinned}
                    checkedChildren={t('tadv.pinned')}
                    unCheckedChildren={t('tadv.unpinned')}
                    onChange={(pinned) =>
                      tableIndexesApi.pinRollup(project, table, rx._id, pinned).then(reload, reload)
                    }
                    data-testid="rollup-pin"
                  />,
                  <Popconfirm
                    key="rm"
                    title={t('tadv.rollupRemoveConfirm')}
                    onConfirm={() =>
                      tableIndexesApi.removeRollup(project, table, rx._id).then(reload, reload)
                    }
                  >
                    <Button size="small" danger icon={<DeleteOutlined />} data-testid="rollup-remove">
                      {t('common.remove')}
                    </Button>
                  </Popconfirm>,
                ]}
              >
                <Space wrap size={[4, 4]}>
                  {rx.fields.map((f) => (
                    <Tag key={f.field} color="blue">
                      {t('tadv.rollupGroup')} {f.name ?? f.field}
                    </Tag>
                  ))}
                  {rx.values.map((f) => (
                    <Tag key={f.field}>
                      {t(f.sum ? 'tadv.rollupSum' : 'tadv.rollupCount')} {f.name ?? f.field}
                    </Tag>
                  ))}
                  <Typography.Text type="secondary">
                    <span data-testid="rollup-uses">{t('tadv.uses', { n: rx.uses })}</span>
                    {rx.uses > 0
                      ? ` · ${t('tadv.lastUsed', { at: new Date(rx.lastUsedAt).toLocaleString() })}`
                      : ''}
                  </Typography.Text>
                </Space>
              </List.Item>
            )}
          />
        </>
      )}
    </Card>
  );
}
