import { DownloadOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Checkbox, Dropdown, List, Modal, Progress, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SortKey } from '../api/workbench.ts';
import {
  type ExportMode,
  exportXlsx,
  fileBase64,
  ImportError,
  type ImportResult,
  importXlsx,
} from '../api/xlsx.ts';

interface Props {
  project: string;
  entity: string;
  /** The grid's current query, sort and page (what "current page" and "all" export). */
  query: unknown;
  sort: SortKey[];
  page: { index: number; size: number };
  /** Reload the grid after an import. */
  onImported: () => void;
  /** Which of the two buttons show (both by default): an end user's view may allow one. */
  canImport?: boolean;
  canExport?: boolean;
  /** Told after a file was exported (a page table's onExport event). */
  onExported?: () => void;
}

/**
 * Import (upload with progress, keep-good-rows option, row errors) and export (page, all, template)
 * of a table through the end-user spreadsheet calls (the caller's grants apply): the builder's rows
 * grid and the end user's data view both use it.
 */
export function XlsxTools({
  project,
  entity,
  query,
  sort,
  page,
  onImported,
  canImport = true,
  canExport = true,
  onExported,
}: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [keepGood, setKeepGood] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<{ ok: boolean; data: ImportResult | null; msg?: string } | null>(null);
  const [exporting, setExporting] = useState(false);
  const templateInput = useRef<HTMLInputElement>(null);

  function reset() {
    setFile(null);
    setProgress(null);
    setResult(null);
  }

  async function runImport() {
    if (!file) return;
    setResult(null);
    setProgress(0);
    try {
      const data = await importXlsx(project, entity, file, { keepGood, onProgress: setProgress });
      setResult({ ok: true, data });
      message.success(t('xlsx.importSuccess', { count: data.inserted }));
      onImported();
    } catch (err) {
      setResult({
        ok: false,
        data: err instanceof ImportError ? err.result : null,
        msg: (err as Error).message,
      });
      message.error(t('xlsx.importFailed'));
    } finally {
      setProgress(null);
    }
  }

  async function runExport(mode: ExportMode, template?: File) {
    setExporting(true);
    try {
      const body =
        mode === 'template' && template
          ? { mode, query, sort, page, template: await fileBase64(template) }
          : mode === 'all'
            ? { mode, query, sort }
            : { mode, query, sort, page };
      const name = await exportXlsx(project, entity, body);
      message.success(t('xlsx.exported', { name }));
      onExported?.();
    } catch {
      // The error notice was shown.
    } finally {
      setExporting(false);
    }
  }

  const errors = result?.data?.errors ?? [];
  return (
    <>
      {canImport ? (
        <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="xlsx-import">
          {t('xlsx.import')}
        </Button>
      ) : null}
      {canExport ? (
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'page', label: t('xlsx.exportPage') },
              { key: 'all', label: t('xlsx.exportAll') },
              { key: 'template', label: t('xlsx.exportTemplate') },
            ],
            onClick: ({ key }) => {
              if (key === 'template') templateInput.current?.click();
              else void runExport(key as ExportMode);
            },
          }}
        >
          <Button icon={<DownloadOutlined />} loading={exporting} data-testid="xlsx-export">
            {t('xlsx.export')}
          </Button>
        </Dropdown>
      ) : null}
      <input
        ref={templateInput}
        type="file"
        accept=".xlsx"
        hidden
        data-testid="xlsx-template-file"
        onChange={(ev) => {
          const f = ev.target.files?.[0];
          ev.target.value = '';
          if (f) void runExport('template', f);
        }}
      />
      <Modal
        open={open}
        title={t('xlsx.importTitle')}
        onCancel={() => {
          if (progress !== null) return;
          setOpen(false);
          reset();
        }}
        footer={[
          <Button
            key="close"
            data-testid="xlsx-import-close"
            disabled={progress !== null}
            onClick={() => {
              setOpen(false);
              reset();
            }}
          >
            {t('common.close')}
          </Button>,
          <Button
            key="go"
            type="primary"
            disabled={!file}
            loading={progress !== null}
            onClick={() => void runImport()}
            data-testid="xlsx-import-start"
          >
            {t('xlsx.importStart')}
          </Button>,
        ]}
      >
        <Upload.Dragger
          accept=".xlsx"
          maxCount={1}
          beforeUpload={(f) => {
            setFile(f);
            setResult(null);
            return false;
          }}
          onRemove={() => setFile(null)}
          fileList={file ? [{ uid: 'f', name: file.name, status: 'done' }] : []}
          data-testid="xlsx-import-drop"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{t('xlsx.importHint')}</p>
          <Typography.Text type="secondary">{t('xlsx.importRules')}</Typography.Text>
        </Upload.Dragger>
        <Checkbox checked={keepGood} onChange={(e) => setKeepGood(e.target.checked)} className="wb-xlsx-keep">
          {t('xlsx.keepGood')}
        </Checkbox>
        {progress !== null ? (
          <Progress percent={Math.round(progress * 100)} status="active" data-testid="xlsx-progress" />
        ) : null}
        {result ? (
          <div data-testid="xlsx-result">
            <Alert
              type={result.ok ? (result.data?.failed ? 'warning' : 'success') : 'error'}
              showIcon
              message={
                result.ok
                  ? t('xlsx.inserted', { count: result.data?.inserted ?? 0 })
                  : result.data
                    ? t('xlsx.rowsFailed', { count: result.data.failed })
                    : result.msg
              }
              description={
                result.ok && result.data?.failed
                  ? t('xlsx.skipped', { count: result.data.failed })
                  : undefined
              }
            />
            {errors.length ? (
              <List
                size="small"
                className="wb-xlsx-errors"
                dataSource={errors}
                renderItem={(e) => (
                  <List.Item>
                    <Typography.Text code>{e.text}</Typography.Text> {e.field}: {e.reason}
                  </List.Item>
                )}
              />
            ) : null}
            {result.data?.ignored.length ? (
              <Typography.Paragraph type="secondary">
                {t('xlsx.ignored', { names: result.data.ignored.join(', ') })}
              </Typography.Paragraph>
            ) : null}
          </div>
        ) : null}
      </Modal>
    </>
  );
}
