import { Image } from 'antd';
import type { AttachmentItem } from '../../shared/fields/values.ts';
import { type CellProps, type EditorProps, type FieldKind, testId } from './types.ts';
import { Upload } from './Upload.tsx';

/** Image values: one URL, a list of URLs, or a JSON list of URLs (as stored). */
export function imageUrls(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string' && x !== '');
  if (typeof v !== 'string' || !v) return [];
  if (v.startsWith('[')) {
    try {
      const list = JSON.parse(v) as unknown;
      return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }
  return [v];
}

function nameOf(url: string): string {
  const last = url.split('/').pop() || 'image';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    /* keep it as stored */
  }
  return name.replace(/^\d+_[0-9a-f]{32}_/, '');
}

function ImageInput({ field, value, onChange }: EditorProps) {
  const items: AttachmentItem[] = imageUrls(value).map((url) => ({ url, name: nameOf(url), size: 0 }));
  return (
    <Upload
      kind="image"
      value={items}
      // One image is stored as its URL, several as a list (the save call takes both).
      onChange={(next) =>
        onChange?.(next.length === 0 ? null : next.length === 1 ? next[0]!.url : next.map((x) => x.url))
      }
      testId={testId(field)}
    />
  );
}

function ImageCell({ value }: CellProps) {
  const urls = imageUrls(value);
  if (urls.length === 0) return <span className="wb-empty" />;
  return (
    <span className="wb-thumbs">
      {urls.map((u) => (
        <Image key={u} src={u} height={24} width={24} preview={false} />
      ))}
    </span>
  );
}

export const imageKind: FieldKind = { Input: ImageInput, Cell: ImageCell, edit: 'dialog' };
