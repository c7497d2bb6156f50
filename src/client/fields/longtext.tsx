import { Input } from 'antd';
import { LONG_TEXT_MAX } from '../../shared/fields/values.ts';
import { type CellProps, type EditorProps, type FieldKind, testId } from './types.ts';

function LongTextInput({ field, value, onChange, onCommit, onCancel, autoFocus, id }: EditorProps) {
  return (
    <Input.TextArea
      id={id}
      autoFocus={autoFocus}
      className="wb-input"
      data-testid={testId(field)}
      autoSize={{ minRows: 3, maxRows: 12 }}
      maxLength={LONG_TEXT_MAX}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange?.(e.target.value)}
      onBlur={onCommit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel?.();
        // Enter makes a new line; Ctrl/Cmd+Enter saves.
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) onCommit?.();
      }}
    />
  );
}

function LongTextCell({ value }: CellProps) {
  if (typeof value !== 'string' || !value) return <span className="wb-empty" />;
  return (
    <span className="lc-longtext" title={value.length > 2000 ? `${value.slice(0, 2000)}…` : value}>
      {value.length > 120 ? `${value.slice(0, 120)}…` : value}
    </span>
  );
}

export const longtextKind: FieldKind = { Input: LongTextInput, Cell: LongTextCell, edit: 'commit' };
