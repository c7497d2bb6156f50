/** A program's released versions (restore one into the draft) and its run log (each run's trace). */
import { App, Button, Empty, Popconfirm, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Flow, RunLogEntry } from '../../shared/program/index.ts';
import { ApiError } from '../api/api-error.ts';
import { programsApi } from '../api/programs.ts';
import { editorApi, type FlowVersion } from './api.ts';
import { TraceView } from './TestRun.tsx';

const when = (ms: number) => new Date(ms).toLocaleString();

export function VersionsPanel(props: { project: string; flow: Flow; onRestored: (f: Flow) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [list, setList] = useState<FlowVersion[] | null>(null);
  const { project, flow } = props;
  const load = useCallback(
    () => editorApi.versions(project, flow._id).then(setList, () => setList([])),
    [project, flow._id],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: a release changes the last version
  useEffect(() => {
    void load();
  }, [load, flow._lastVersion]);
  const restore = async (v: number) => {
    try {
      const f = await editorApi.restore(project, flow._id, v);
      void message.success(t('progEditor.restored', { version: v }));
      props.onRestored(f);
    } catch (err) {
      void message.error(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    }
  };
  if (list && list.length === 0) return <Empty description={t('progEditor.noVersions')} />;
  return (
    <Table<FlowVersion>
      size="small"
      loading={!list}
      rowKey="version"
      pagination={false}
      dataSource={list ?? []}
      data-testid="versions"
      columns={[
        {
          title: t('progEditor.versionCol'),
          dataIndex: 'version',
          render: (v: number) => (
            <span>
              v{v} {flow._version === v ? <Tag color="green">{t('progEditor.live')}</Tag> : null}
            </span>
          ),
        },
        { title: t('progEditor.releasedAt'), dataIndex: 'createdAt', render: when },
        {
          title: '',
          render: (_: unknown, r) => (
            <Popconfirm
              title={t('progEditor.restoreConfirm', { version: r.version })}
              onConfirm={() => void restore(r.version)}
            >
              <Button size="small">{t('progEditor.restore')}</Button>
            </Popconfirm>
          ),
        },
      ]}
    />
  );
}

export function RunLog(props: { project: string; flow: Flow; refresh: number }) {
  const { t } = useTranslation();
  const [runs, setRuns] = useState<RunLogEntry[] | null>(null);
  const { project, flow } = props;
  const load = useCallback(() => {
    setRuns(null);
    programsApi.runs(project, flow._id).then(setRuns, () => setRuns([]));
  }, [project, flow._id]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh is a request to load again
  useEffect(load, [load, props.refresh]);
  return (
    <div data-testid="run-log">
      <Button size="small" onClick={load} style={{ marginBottom: 8 }}>
        {t('progEditor.reload')}
      </Button>
      <Table<RunLogEntry>
        size="small"
        loading={!runs}
        rowKey="_id"
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        dataSource={runs ?? []}
        scroll={{ x: true }}
        locale={{ emptyText: t('progEditor.noRuns') }}
        expandable={{ expandedRowRender: (r) => <TraceView trace={r.trace} /> }}
        columns={[
          { title: t('progEditor.time'), dataIndex: 'createdAt', render: when },
          {
            title: t('progEditor.trigger'),
            dataIndex: 'trigger',
            render: (v: string) => <Tag>{t(`progEditor.triggers.${v}`)}</Tag>,
          },
          {
            title: t('progEditor.versionCol'),
            dataIndex: 'version',
            render: (v: number | null) => (v ? `v${v}` : t('progEditor.draft')),
          },
          {
            title: t('progEditor.status'),
            dataIndex: 'status',
            render: (v: RunLogEntry['status']) => (
              <Tag color={v === 'ok' ? 'green' : v === 'failed' ? 'red' : 'blue'}>
                {t(`progEditor.statuses.${v}`)}
              </Tag>
            ),
          },
          { title: 'ms', dataIndex: 'ms' },
          {
            title: t('progEditor.message'),
            render: (_: unknown, r) =>
              r.errorCode ? (
                <Typography.Text type="danger">
                  {r.errorCode} {r.errorStep ? `@${r.errorStep}` : ''} {r.message ?? ''}
                </Typography.Text>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
