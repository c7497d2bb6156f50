import { ReloadOutlined } from '@ant-design/icons';
import { Button, Table } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT } from '../../../shared/constants.ts';
import { ApiError } from '../../api/api-error.ts';
import { showDataset } from '../../runtime/dataset-client.ts';

/** A cell's text: relate values show their display name, lists are joined. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(cell).join(', ');
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return String(o.__name ?? o._name ?? o._id ?? JSON.stringify(v));
  }
  return String(v);
}

interface Answer {
  rows: Record<string, unknown>[];
  count: number;
  titles: { key: string; title: string }[];
}

/**
 * A list menu entry naming a dataset: its released rows and column titles, read-only and paged,
 * through the dataset show call with the user's dataset grant.
 */
export function DatasetList(props: { project: string; dataset: string; onDenied(code: number): void }) {
  const { t } = useTranslation();
  const { project, dataset, onDenied } = props;
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [index, setIndex] = useState(1);
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    void tick;
    showDataset(project, dataset, { page: { index, size: PAGE_SIZE_DEFAULT }, count: true })
      .then(
        (a) => {
          if (!live) return;
          setAnswer({
            rows: a.rows.map((r, i) => ({ _key: `${index}-${i}`, ...r })),
            count: a.count ?? a.rows.length,
            titles: a.columns.map((c) => ({ key: c.key, title: c.title })),
          });
        },
        (err: unknown) => {
          if (!live) return;
          if (err instanceof ApiError) onDenied(err.code);
          setAnswer({ rows: [], count: 0, titles: [] });
        },
      )
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [project, dataset, index, tick, onDenied]);

  const columns = useMemo(
    () =>
      (answer?.titles ?? []).map((c) => ({
        key: c.key,
        dataIndex: c.key,
        title: c.title || c.key,
        render: (v: unknown) => cell(v),
        ellipsis: true,
      })),
    [answer],
  );

  return (
    <div data-testid="dataset-list">
      <Button
        icon={<ReloadOutlined />}
        onClick={() => setTick((n) => n + 1)}
        aria-label={t('list.refresh')}
      />
      <Table
        rowKey="_key"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={answer?.rows ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: index,
          pageSize: PAGE_SIZE_DEFAULT,
          total: answer?.count ?? 0,
          showSizeChanger: false,
          onChange: setIndex,
          showTotal: (n) => t('list.total', { count: n }),
        }}
      />
    </div>
  );
}
