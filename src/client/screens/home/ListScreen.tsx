import { ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '../../../shared/constants.ts';
import { ApiError } from '../../api/api-error.ts';
import { type Rows, shellApi } from '../../api/shell.ts';
import { showDataset } from '../../runtime/dataset-client.ts';
import { findEntry } from '../../shell/menu.ts';
import { withPrefix } from '../../shell/navigation.ts';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { useShellProject } from '../../shell/use-app-project.ts';
import { useShell } from '../../stores/shell.ts';

/** Codes meaning "your role may not read this": the user is sent to /no-authority. */
const DENIED = new Set([1102, 1201]);

const STAMPS = ['createdAt', 'updatedAt'];

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

/**
 * /home/{page}: a list (table) menu entry's rows, read-only, through the end-user data call with the
 * user's grants. An entry missing from the user's menu, or a table the role may not read, goes to
 * /no-authority.
 */
export default function ListScreen() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { page = '' } = useParams();
  const projectId = useShell((s) => s.projectId);
  // Known before the frame's effect hands it to the store (a fresh sign-in): wait, not "no system".
  const shown = useShellProject();
  const custom = useShell((s) => s.custom);
  const menu = useShell((s) => s.menu);
  const menuFor = useShell((s) => s.menuFor);
  const entry = findEntry(menu, (n) => n._type === 'table' && n._value === page);
  const [rows, setRows] = useState<Rows | null>(null);
  const [index, setIndex] = useState(1);
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);
  const [titles, setTitles] = useState<Record<string, string>>({});

  // The user's menu for this project has loaded and holds no such list: not granted.
  const denied = projectId !== null && menuFor === projectId && !entry;
  useEffect(() => {
    if (denied) navigate(withPrefix('/no-authority', custom), { replace: true });
  }, [denied, navigate, custom]);

  useEffect(() => {
    if (!projectId || !entry) return;
    let live = true;
    setLoading(true);
    void tick;
    shellApi
      .rows(projectId, page, index, PAGE_SIZE_DEFAULT)
      // A list entry may name a dataset instead of a table: its released rows, with its grant.
      .catch(async (err: unknown) => {
        if (!(err instanceof ApiError) || err.code !== 1400) throw err;
        const a = await showDataset(projectId, page, {
          page: { index, size: PAGE_SIZE_DEFAULT },
          count: true,
        });
        setTitles(Object.fromEntries(a.columns.map((c) => [c.key, c.title])));
        return {
          data: a.rows.map((r, i) => ({ _id: `${index}-${i}`, ...r })),
          count: a.count ?? a.rows.length,
          page: { index, size: PAGE_SIZE_DEFAULT },
        } satisfies Rows;
      })
      .then(
        (answer) => {
          if (live) setRows(answer);
        },
        (err: unknown) => {
          if (!live) return;
          if (err instanceof ApiError && DENIED.has(err.code)) {
            navigate(withPrefix('/no-authority', custom), { replace: true });
          } else setRows({ data: [], page: { index, size: PAGE_SIZE_DEFAULT }, count: 0 });
        },
      )
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [projectId, entry, page, index, tick, navigate, custom]);

  const columns = useMemo(() => {
    const keys: string[] = [];
    for (const r of rows?.data ?? []) {
      for (const k of Object.keys(r)) if (!k.startsWith('_') && !keys.includes(k)) keys.push(k);
    }
    // The record's own fields first; its timestamps last, as dates.
    const stamps = keys.filter((k) => STAMPS.includes(k));
    const when = new Intl.DateTimeFormat(i18n.language === 'zh' ? 'zh-CN' : 'en-GB', {
      dateStyle: 'short',
      timeStyle: 'short',
    });
    return [...keys.filter((k) => !STAMPS.includes(k)), ...stamps].map((k) => ({
      key: k,
      dataIndex: k,
      title: STAMPS.includes(k) ? t(`list.${k}`) : (titles[k] ?? k),
      render: (v: unknown) => (STAMPS.includes(k) && typeof v === 'number' ? when.format(v) : cell(v)),
      ellipsis: true,
    }));
  }, [rows, t, i18n.language, titles]);

  if (!projectId)
    return shown.id || !shown.ready ? <PageLoading /> : <Result status="info" title={t('list.noProject')} />;
  if (!entry) return null;
  return (
    <div className="list-screen" data-testid="list-screen">
      <Space className="list-head" align="center">
        <Typography.Title level={4} className="list-title">
          {entry.name}
        </Typography.Title>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => setTick((n) => n + 1)}
          aria-label={t('list.refresh')}
        />
      </Space>
      <Table
        rowKey="_id"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={rows?.data ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: index,
          pageSize: PAGE_SIZE_DEFAULT,
          total: rows?.count ?? 0,
          showSizeChanger: false,
          showTotal: (count) => t('list.total', { count }),
          onChange: setIndex,
        }}
      />
    </div>
  );
}
