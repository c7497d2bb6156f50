import { DownloadOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AttachmentItem } from '../../shared/fields/values.ts';
import { downloadFiles, projectOfUpload } from '../api/upload.ts';
import { saveBlob } from '../api/xlsx.ts';
import { type CellProps, type EditorProps, type FieldKind, testId } from './types.ts';
import { Upload } from './Upload.tsx';

export function attachmentsOf(v: unknown): AttachmentItem[] {
  if (!Array.isArray(v)) return [];
  return v.filter(
    (x): x is AttachmentItem =>
      Boolean(x) && typeof x === 'object' && typeof (x as AttachmentItem).url === 'string',
  );
}

function AttachmentInput({ field, value, onChange }: EditorProps) {
  return (
    <Upload
      kind="file"
      value={attachmentsOf(value)}
      onChange={(items) => onChange?.(items)}
      testId={testId(field)}
    />
  );
}

function AttachmentCell({ value }: CellProps) {
  const items = attachmentsOf(value);
  if (items.length === 0) return <span className="wb-empty" />;
  return (
    <span className="lc-files">
      {items.map((f) => (
        <a
          key={f.url}
          href={f.url}
          target="_blank"
          rel="noopener noreferrer"
          download={f.name}
          onClick={(e) => e.stopPropagation()}
        >
          <PaperClipOutlined /> {f.name}
        </a>
      ))}
      {items.length > 1 ? <DownloadAll items={items} /> : null}
    </span>
  );
}

/** Two or more files: one zip of them all, named after their names (the server streams it). */
function DownloadAll({ items }: { items: AttachmentItem[] }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const project = projectOfUpload(items[0]!.url);
  if (!project) return null;
  return (
    <Button
      size="small"
      type="link"
      icon={<DownloadOutlined />}
      loading={busy}
      data-testid="files-zip"
      onClick={(e) => {
        e.stopPropagation();
        setBusy(true);
        downloadFiles(
          project,
          items.map((f) => ({ url: f.url, name: f.name })),
        )
          .then((zip) => saveBlob(zip, 'files.zip'))
          .catch(() => {
            /* the coded error was shown */
          })
          .finally(() => setBusy(false));
      }}
    >
      {t('upload.downloadAll')}
    </Button>
  );
}

export const attachmentKind: FieldKind = { Input: AttachmentInput, Cell: AttachmentCell, edit: 'dialog' };
