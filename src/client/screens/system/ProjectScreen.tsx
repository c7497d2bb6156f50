import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Checkbox, Descriptions, Radio, Space, Spin, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error.ts';
import { type ProjectUsage, projectTransferApi } from '../../api/system.ts';
import { saveBlob } from '../../api/xlsx.ts';
import { reloadShellMenu } from '../../shell/use-app-project.ts';
import { useProject } from '../workbench/workbench-context.ts';

const USAGE: [keyof ProjectUsage, string][] = [
  ['entities', 'sys.usageTables'],
  ['fields', 'sys.usageFields'],
  ['records', 'sys.usageRecords'],
  ['pages', 'sys.usagePages'],
  ['routes', 'sys.usageMenus'],
  ['roles', 'sys.usageRoles'],
  ['programs', 'sys.usagePrograms'],
  ['datasets', 'sys.usageDatasets'],
  ['members', 'sys.usageMembers'],
  ['modules', 'sys.usageModules'],
];

/** A file name safe on every system: the project's name and the day. */
function packageName(name: string): string {
  const safe = name.replace(/[\\/:*?"<>|\s]+/g, '-').slice(0, 60) || 'system';
  return `${safe}-${new Date().toISOString().slice(0, 10)}.json`;
}

/** /system/project: what the system holds, and its export and import. */
export default function ProjectScreen() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const project = useProject();
  const p = project._id;
  const [usage, setUsage] = useState<ProjectUsage | null>(null);
  const [records, setRecords] = useState(true);
  const [mode, setMode] = useState<'add' | 'replace'>('add');
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);
  const file = useRef<HTMLInputElement>(null);

  const reload = useCallback(() => {
    projectTransferApi
      .usage(p)
      .then(setUsage)
      .catch(() => setUsage(null));
  }, [p]);
  useEffect(reload, [reload]);

  async function doExport() {
    setBusy('export');
    try {
      const pkg = await projectTransferApi.exportProject(p, records);
      saveBlob(new Blob([JSON.stringify(pkg)], { type: 'application/json' }), packageName(project._name));
      message.success(t('sys.exported'));
    } finally {
      setBusy(null);
    }
  }

  async function runImport(pkg: unknown) {
    setBusy('import');
    try {
      const r = await projectTransferApi.importProject(p, pkg, mode === 'replace');
      message.success(t('sys.imported', { ...r }));
      reload();
      // The side menu shows the imported entries at once (replace mode changes this system's menu).
      await reloadShellMenu(p);
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  }

  async function picked(f: File | undefined) {
    if (file.current) file.current.value = '';
    if (!f) return;
    let pkg: unknown;
    try {
      pkg = JSON.parse(await f.text());
    } catch {
      message.error(t('sys.importBad'));
      return;
    }
    if (mode === 'replace') {
      modal.confirm({
        title: t('sys.importReplaceTitle', { name: project._name }),
        content: t('sys.importReplaceBody'),
        okButtonProps: { danger: true },
        okText: t('sys.importReplace'),
        onOk: () => runImport(pkg),
      });
    } else await runImport(pkg);
  }

  return (
    <Space direction="vertical" size="middle" className="system-project" data-testid="system-project">
      <Card title={t('sys.usage')} size="small">
        {usage ? (
          <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} data-testid="project-usage">
            {USAGE.map(([key, label]) => (
              <Descriptions.Item key={key} label={t(label)}>
                <span data-testid={`usage-${key}`}>{usage[key].toLocaleString()}</span>
              </Descriptions.Item>
            ))}
          </Descriptions>
        ) : (
          <Spin />
        )}
      </Card>
      <Card title={t('sys.exportTitle')} size="small">
        <Typography.Paragraph type="secondary">{t('sys.exportBody')}</Typography.Paragraph>
        <Space wrap>
          <Checkbox checked={records} onChange={(e) => setRecords(e.target.checked)}>
            {t('sys.exportRecords')}
          </Checkbox>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            loading={busy === 'export'}
            onClick={() => void doExport()}
          >
            {t('sys.exportButton')}
          </Button>
        </Space>
      </Card>
      <Card title={t('sys.importTitle')} size="small">
        <Typography.Paragraph type="secondary">{t('sys.importBody')}</Typography.Paragraph>
        <Space wrap>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)}>
            <Radio value="add">{t('sys.importAdd')}</Radio>
            <Radio value="replace">{t('sys.importReplace')}</Radio>
          </Radio.Group>
          <Button
            icon={<UploadOutlined />}
            loading={busy === 'import'}
            danger={mode === 'replace'}
            onClick={() => file.current?.click()}
          >
            {t('sys.importPick')}
          </Button>
          <input
            ref={file}
            type="file"
            accept="application/json,.json"
            hidden
            data-testid="import-file"
            onChange={(e) => void picked(e.target.files?.[0])}
          />
        </Space>
      </Card>
    </Space>
  );
}
