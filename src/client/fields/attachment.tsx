import { PaperClipOutlined } from '@ant-design/icons';
import type { AttachmentItem } from '../../shared/fields/values.ts';
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
    </span>
  );
}

export const attachmentKind: FieldKind = { Input: AttachmentInput, Cell: AttachmentCell, edit: 'dialog' };
