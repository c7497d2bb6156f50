/**
 * The form's region picker and image upload: antd's Cascader, Upload (with its Progress) and the
 * region list are a sizeable part of the page path, and few forms ask for them, so the form render
 * loads this file only when it draws such a field.
 */
import { PlusOutlined } from '@ant-design/icons';
import { Avatar, Button, Cascader, Space, Upload } from 'antd';
import { useState } from 'react';
import { str } from '../../src/shared/props.ts';
import { safeUrl } from '../../src/shared/sanitize.ts';
import { useRuntime } from '../kit/widget-context.ts';
import { REGIONS, regionPath, regionText } from './regions.ts';

/** A region picker (province / city / district) whose value is the text "省/市/区". */
export function RegionInput({ value, onChange }: { value?: unknown; onChange?: (v: string) => void }) {
  const rt = useRuntime();
  return (
    <Cascader
      options={REGIONS}
      value={regionPath(value)}
      onChange={(path) => onChange?.(regionText((path ?? []) as unknown[]))}
      placeholder={rt.lang === 'en' ? 'Province / city / district' : '省 / 市 / 区'}
      style={{ width: '100%' }}
    />
  );
}

/** An image (an avatar) the user uploads; the value is the stored file's URL. */
export function ImageInput({
  value,
  onChange,
  entity,
}: {
  value?: unknown;
  onChange?: (v: string) => void;
  entity: string;
}) {
  const rt = useRuntime();
  const [busy, setBusy] = useState(false);
  const src = safeUrl(str(value));
  return (
    <Upload
      accept="image/png,image/jpeg,image/gif,image/webp"
      showUploadList={false}
      disabled={!rt.upload || busy}
      customRequest={({ file }) => {
        if (!rt.upload) return;
        setBusy(true);
        rt.upload(file as File, 'image', entity || undefined)
          .then((u) => onChange?.(u.url))
          .catch((e: unknown) => rt.notify?.('error', e instanceof Error ? e.message : String(e)))
          .finally(() => setBusy(false));
      }}
    >
      <Space>
        <Avatar size={64} src={src || undefined} icon={src ? undefined : <PlusOutlined />} />
        <Button loading={busy}>
          {rt.lang === 'en' ? (src ? 'Change' : 'Upload') : src ? '更换' : '上传'}
        </Button>
      </Space>
    </Upload>
  );
}
