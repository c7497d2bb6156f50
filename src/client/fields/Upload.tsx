/**
 * The upload control of image and attachment fields (and any form that takes files): drag and drop
 * or click, a size check before sending (the spec's 20,480 KB), images checked and compressed on the
 * client, progress per file, thumbnails for images, and the stored files as the value.
 */
import { DeleteOutlined, InboxOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Upload as AntUpload, App, Button, Progress, type UploadFile } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UPLOAD_MAX } from '../../shared/constants.ts';
import type { AttachmentItem } from '../../shared/fields/values.ts';
import { uploadFile } from '../api/upload.ts';
import { errorText } from '../views/error-text.ts';
import { type CompressOptions, compressImage } from './compress.ts';
import { useFieldContext } from './context.ts';

export const UPLOAD_MAX_BYTES = UPLOAD_MAX * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export interface UploadProps {
  kind: 'image' | 'file';
  value: AttachmentItem[];
  onChange(items: AttachmentItem[]): void;
  /** At most this many files (1 for a single image). */
  max?: number;
  /** Image compression before upload; `false` sends images as they are. */
  compress?: Partial<CompressOptions> | false;
  disabled?: boolean;
  testId?: string;
}

const isImageUrl = (item: AttachmentItem) =>
  item.type?.startsWith('image/') || /\.(png|jpe?g|gif|webp)$/i.test(item.url);

function listItem(item: AttachmentItem): UploadFile {
  return {
    uid: item.url,
    name: item.name,
    status: 'done',
    url: item.url,
    ...(isImageUrl(item) ? { thumbUrl: item.url } : {}),
    size: item.size,
  };
}

export function Upload({ kind, value, onChange, max, compress, disabled, testId }: UploadProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { project, entity } = useFieldContext();
  const [pending, setPending] = useState<UploadFile[]>([]);
  const current = useRef(value);
  current.current = value;
  const full = max !== undefined && value.length + pending.length >= max;

  async function before(file: File): Promise<File | boolean> {
    if (kind === 'image' && !IMAGE_TYPES.includes(file.type)) {
      message.error(t('upload.notImage'));
      return AntUpload.LIST_IGNORE as unknown as boolean;
    }
    let out = file;
    if (kind === 'image' && compress !== false) out = await compressImage(file, compress || {});
    if (out.size > UPLOAD_MAX_BYTES) {
      message.error(t('upload.tooLarge', { max: UPLOAD_MAX / 1024 }));
      return AntUpload.LIST_IGNORE as unknown as boolean;
    }
    return out;
  }

  const patch = (uid: string, p: Partial<UploadFile> | null) =>
    setPending((list) =>
      p === null ? list.filter((f) => f.uid !== uid) : list.map((f) => (f.uid === uid ? { ...f, ...p } : f)),
    );

  return (
    <div data-testid={testId} className="lc-upload">
      <AntUpload.Dragger
        multiple={max !== 1}
        disabled={disabled || !project}
        accept={kind === 'image' ? IMAGE_TYPES.join(',') : undefined}
        openFileDialogOnClick={!full}
        fileList={[]}
        beforeUpload={before}
        showUploadList={false}
        customRequest={({ file }) => {
          const f = file as File;
          const uid = `pending-${Math.random().toString(36).slice(2)}`;
          setPending((list) => [...list, { uid, name: f.name, status: 'uploading', percent: 0 }]);
          uploadFile(project!, f, f.name, {
            type: kind,
            ...(entity ? { entity } : {}),
            onProgress: (x) => patch(uid, { percent: Math.round(x * 100) }),
          }).then(
            (saved) => {
              patch(uid, null);
              const item: AttachmentItem = { url: saved.url, name: f.name.slice(0, 200), size: saved.size };
              if (saved.mime) item.type = saved.mime;
              onChange([...current.current, item]);
            },
            // The server's coded reason (too large, a type that lies, no write grant…) beside the file.
            (err: unknown) =>
              patch(uid, { status: 'error', percent: 0, response: errorText(err, i18n.language) }),
          );
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{kind === 'image' ? t('upload.dropImage') : t('upload.drop')}</p>
        <p className="ant-upload-hint">{t('upload.limit', { max: UPLOAD_MAX / 1024 })}</p>
      </AntUpload.Dragger>
      <ul className="lc-upload-list">
        {[...value.map(listItem), ...pending].map((f) => (
          <li key={f.uid} className={`lc-upload-item lc-upload-${f.status}`} data-status={f.status}>
            {f.thumbUrl ? (
              <img src={f.thumbUrl} alt={f.name} className="lc-upload-thumb" />
            ) : (
              <PaperClipOutlined />
            )}
            {f.url ? (
              <a href={f.url} target="_blank" rel="noopener noreferrer" className="lc-upload-name">
                {f.name}
              </a>
            ) : (
              <span className="lc-upload-name">{f.name}</span>
            )}
            {f.status === 'uploading' ? (
              <Progress percent={f.percent ?? 0} size="small" className="lc-upload-progress" />
            ) : null}
            {f.status === 'error' ? (
              <span
                className="lc-upload-reason"
                title={typeof f.response === 'string' ? f.response : undefined}
              >
                {t('upload.failed')}
                {typeof f.response === 'string' && f.response ? `: ${f.response}` : ''}
              </span>
            ) : null}
            {!disabled ? (
              <Button
                type="text"
                size="small"
                icon={<DeleteOutlined />}
                aria-label={t('upload.remove')}
                onClick={() =>
                  f.status === 'done'
                    ? onChange(current.current.filter((x) => x.url !== f.uid))
                    : patch(f.uid, null)
                }
              />
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
