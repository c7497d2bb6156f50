import { PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { App, Button, Drawer, Input, Segmented, Space, Spin, Switch, Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Flow } from '../../../shared/program/index.ts';
import { beijingText } from '../../../shared/schedule/index.ts';
import { ApiError } from '../../api/api-error.ts';
import { programsApi } from '../../api/programs.ts';
import {
  type FireState,
  type ScheduleJob,
  type ScheduleList,
  type ScheduleLogItem,
  type ScheduleTask,
  schedulesApi,
} from '../../api/schedules.ts';
import { useProject } from '../workbench/workbench-context.ts';
import { ScheduleForm } from './ScheduleForm.tsx';

const LOG_PAGE = 20;
const STATE_COLOR: Record<FireState, string> = {
  success: 'green',
  fail: 'red',
  missed: 'orange',
  skipped: 'default',
  running: 'blue',
};

/** /system/schedule: scheduled tasks or running jobs, search, create/edit, toggle, remove, run logs. */
export default function ScheduleScreen() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const p = useProject()._id;
  const [model, setModel] = useState<'schedule' | 'job'>('schedule');
  const [search, setSearch] = useState('');
  const [data, setData] = useState<ScheduleList<ScheduleTask | ScheduleJob> | null>(null);
  const [flows, setFlows] = useState<Flow[]>([]);
  const [editing, setEditing] = useState<ScheduleTask | null | 'new'>(null);
  const [logOf, setLogOf] = useState<ScheduleTask | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const reload = useCallback(async () => {
    setData(model === 'job' ? await schedulesApi.jobs(p, search) : await schedulesApi.list(p, search));
  }, [p, model, search]);
  useEffect(() => {
    reload().catch(() => setData({ list: [], used: 0, quota: null }));
  }, [reload]);
  useEffect(() => {
    programsApi
      .list(p)
      .then(setFlows)
      .catch(() => setFlows([]));
  }, [p]);

  const full = data !== null && data.quota !== null && data.used >= data.quota;
  const flowName = (id: string) => flows.find((f) => f._id === id)?._name ?? id;

  async function toggle(task: ScheduleTask) {
    setBusy(task._id);
    try {
      await schedulesApi.toggle(p, task._id);
      await reload();
    } catch (err) {
      if (err instanceof ApiError) message.error(err.message);
    } finally {
      setBusy(null);
    }
  }

  function remove(task: ScheduleTask) {
    modal.confirm({
      title: t('sched.removeTitle', { name: task._name }),
      content: t('sched.removeBody'),
      okText: t('common.remove'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'schedule-remove-ok' } as never,
      onOk: async () => {
        await schedulesApi.remove(p, task._id);
        message.success(t('sched.removed'));
        await reload();
      },
    });
  }

  if (!data) return <Spin className="center-pad" />;
  return (
    <div className="system-pad" data-testid="schedule-screen">
      <div className="wb-bar">
        <h2 className="wb-heading">
          {t('sys.schedule')}{' '}
          <Tag color={full ? 'red' : 'default'} data-testid="schedule-quota">
            {data.quota === null ? data.used : `${data.used} / ${data.quota}`}
          </Tag>
        </h2>
        <Space wrap>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void reload()}
            data-testid="schedule-refresh"
            aria-label={t('sched.refresh')}
          />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={full}
            onClick={() => setEditing('new')}
            data-testid="schedule-create"
          >
            {t('sched.create')}
          </Button>
        </Space>
      </div>
      {full ? (
        <div className="system-quota" data-testid="schedule-quota-full">
          {t('sched.quotaFull')}{' '}
          <Button type="link" size="small" onClick={() => navigate('/upgrade')}>
            {t('sys.upgrade')}
          </Button>
        </div>
      ) : null}
      <Space wrap className="schedule-tools">
        <Segmented
          value={model}
          onChange={(v) => setModel(v as 'schedule' | 'job')}
          options={[
            { value: 'schedule', label: t('sched.tasks') },
            { value: 'job', label: t('sched.jobs') },
          ]}
          data-testid="schedule-model"
        />
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('sched.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="schedule-search"
          style={{ width: 220 }}
        />
      </Space>
      <Table<ScheduleTask | ScheduleJob>
        rowKey="_id"
        size="small"
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        dataSource={data.list}
        locale={{ emptyText: t('sched.empty') }}
        columns={[
          { title: t('sched.name'), dataIndex: '_name' },
          { title: t('sched.flow'), render: (_, r) => flowName(r._flow) },
          { title: 'cron', dataIndex: '_cron', render: (c: string) => <code>{c}</code> },
          {
            title: t('sched.next'),
            render: (_, r) => (r.next ? beijingText(r.next) : '—'),
          },
          ...(model === 'job'
            ? [
                {
                  title: t('sched.last'),
                  render: (_: unknown, r: ScheduleTask | ScheduleJob) => {
                    const last = (r as ScheduleJob).last;
                    return last ? (
                      <Tag color={STATE_COLOR[last.state]}>
                        {beijingText(last.time)} {t(`sched.states.${last.state}`)}
                      </Tag>
                    ) : (
                      '—'
                    );
                  },
                },
              ]
            : []),
          {
            title: t('sched.enabled'),
            render: (_, r) => (
              <Switch
                checked={r.enabled}
                loading={busy === r._id}
                onChange={() => void toggle(r)}
                data-testid={`schedule-toggle-${r._name}`}
              />
            ),
          },
          {
            title: '',
            render: (_, r) => (
              <Space size={0} wrap>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setLogOf(r)}
                  data-testid={`schedule-log-${r._name}`}
                >
                  {t('sched.log')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setEditing(r)}
                  data-testid={`schedule-edit-${r._name}`}
                >
                  {t('sched.edit')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  danger
                  onClick={() => remove(r)}
                  data-testid={`schedule-remove-${r._name}`}
                >
                  {t('common.remove')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing ? (
        <ScheduleForm
          project={p}
          task={editing === 'new' ? null : editing}
          flows={flows}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            message.success(t('sched.saved'));
            void reload();
          }}
        />
      ) : null}
      {logOf ? <ScheduleLog project={p} task={logOf} onClose={() => setLogOf(null)} /> : null}
    </div>
  );
}

/** A task's run log, 20 a page, newest first; refreshed every few seconds while open. */
function ScheduleLog(props: { project: string; task: ScheduleTask; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [log, setLog] = useState<{ data: ScheduleLogItem[]; size: number } | null>(null);
  const load = useCallback(async () => {
    setLog(await schedulesApi.log(props.project, props.task._id, page, LOG_PAGE));
  }, [props.project, props.task._id, page]);
  useEffect(() => {
    void load().catch(() => undefined);
    const timer = setInterval(() => void load().catch(() => undefined), 3000);
    return () => clearInterval(timer);
  }, [load]);
  return (
    <Drawer
      open
      title={t('sched.logTitle', { name: props.task._name })}
      onClose={props.onClose}
      size="large"
      width="min(720px, 100vw)"
      data-testid="schedule-log"
    >
      <Table<ScheduleLogItem>
        rowKey="time"
        size="small"
        loading={log === null}
        scroll={{ x: 'max-content' }}
        dataSource={log?.data ?? []}
        locale={{ emptyText: t('sched.logEmpty') }}
        pagination={{
          current: page,
          pageSize: LOG_PAGE,
          total: log?.size ?? 0,
          showSizeChanger: false,
          onChange: setPage,
          hideOnSinglePage: true,
        }}
        columns={[
          { title: t('sched.time'), render: (_, r) => beijingText(r.time) },
          {
            title: t('sched.state'),
            render: (_, r) => (
              <Tag color={STATE_COLOR[r.state]} data-testid="schedule-log-state">
                {t(`sched.states.${r.state}`)}
              </Tag>
            ),
          },
          {
            title: t('sched.result'),
            render: (_, r) => <span className="schedule-result">{r.result ?? ''}</span>,
          },
        ]}
      />
    </Drawer>
  );
}
