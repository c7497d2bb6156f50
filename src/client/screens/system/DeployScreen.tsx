import { CopyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Descriptions, Space, Spin, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/request.ts';
import { useProject } from '../workbench/workbench-context.ts';

interface DeployInfo {
  version: string;
  node: string;
  platform: string;
  database: { kind: 'sqlite' | 'postgres'; version: string; location: string; sizeBytes: number | null };
  redis: { configured: boolean; location: string };
  process: { pid: number; uptimeSeconds: number; rssBytes: number; cpus: number; startedAt: number };
  multiProcess: boolean;
  env: { name: string; value: string; set: boolean; note: string }[];
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
function duration(s: number): string {
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d}d ${h}h ${m}m` : h ? `${h}h ${m}m` : `${m}m ${s % 60}s`;
}

/** /system/deploy: how this installation runs, and the settings to run it on PostgreSQL + Redis. */
export default function DeployScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const p = useProject()._id;
  const [info, setInfo] = useState<DeployInfo | null>(null);
  useEffect(() => {
    void get<DeployInfo>(`/api/admin/project/${p}/deploy`, { share: false }).then(setInfo);
  }, [p]);
  if (!info) return <Spin className="center-pad" />;
  const envText = info.env
    .filter((e) => e.name === 'DATABASE_URL' || e.name === 'REDIS_URL' || e.set)
    .map((e) => `${e.name}=${e.value}`)
    .join('\n');
  return (
    <Space direction="vertical" size="middle" className="system-admin2" data-testid="system-deploy">
      <Alert
        type={info.multiProcess ? 'success' : 'info'}
        showIcon
        message={info.multiProcess ? t('adm.deploy.multi') : t('adm.deploy.single')}
      />
      <Card size="small" title={t('adm.deploy.now')}>
        <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} data-testid="deploy-facts">
          <Descriptions.Item label={t('adm.deploy.version')}>{info.version}</Descriptions.Item>
          <Descriptions.Item label={t('adm.deploy.database')}>
            <span data-testid="deploy-db">
              <Tag color={info.database.kind === 'postgres' ? 'blue' : 'default'}>
                {info.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}
              </Tag>
              {info.database.version}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('adm.deploy.where')}>
            <Typography.Text code style={{ wordBreak: 'break-all' }}>
              {info.database.location}
            </Typography.Text>
            {info.database.sizeBytes !== null ? ` (${mb(info.database.sizeBytes)})` : ''}
          </Descriptions.Item>
          <Descriptions.Item label="Redis">
            <span data-testid="deploy-redis">
              {info.redis.configured ? (
                <Typography.Text code>{info.redis.location}</Typography.Text>
              ) : (
                <Tag>{t('adm.deploy.notSet')}</Tag>
              )}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('adm.deploy.process')}>
            pid {info.process.pid} · {mb(info.process.rssBytes)} · {info.process.cpus} CPU
          </Descriptions.Item>
          <Descriptions.Item label={t('adm.deploy.uptime')}>
            <span data-testid="deploy-uptime">{duration(info.process.uptimeSeconds)}</span>
          </Descriptions.Item>
          <Descriptions.Item label="Node.js">{info.node}</Descriptions.Item>
          <Descriptions.Item label={t('adm.deploy.platform')}>{info.platform}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card
        size="small"
        title={t('adm.deploy.move')}
        extra={
          <Button
            icon={<CopyOutlined />}
            onClick={() =>
              void navigator.clipboard?.writeText(envText).then(() => message.success(t('adm.copied')))
            }
          >
            {t('adm.copy')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('adm.deploy.moveHelp')}</Typography.Paragraph>
        <Table
          rowKey="name"
          size="small"
          pagination={false}
          scroll={{ x: 560 }}
          dataSource={info.env}
          data-testid="deploy-env"
          columns={[
            {
              title: t('adm.deploy.setting'),
              dataIndex: 'name',
              width: 160,
              render: (n: string) => <Typography.Text code>{n}</Typography.Text>,
            },
            {
              title: t('adm.deploy.value'),
              dataIndex: 'value',
              render: (v: string, r) => (
                <Space wrap>
                  <Typography.Text code style={{ wordBreak: 'break-all' }}>
                    {v}
                  </Typography.Text>
                  {r.set ? (
                    <Tag color="green">{t('adm.deploy.isSet')}</Tag>
                  ) : (
                    <Tag>{t('adm.deploy.toSet')}</Tag>
                  )}
                </Space>
              ),
            },
            { title: t('adm.deploy.why'), dataIndex: 'note', render: (n: string) => t(`adm.${n}`) },
          ]}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('adm.deploy.steps')}
        </Typography.Paragraph>
      </Card>
    </Space>
  );
}
