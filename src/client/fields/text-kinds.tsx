/** Email, phone and URL: text inputs of the right keyboard, checked as the server checks them. */
import { Input } from 'antd';
import { isWebUrl } from '../../shared/fields/values.ts';
import { type CellProps, type EditorProps, type FieldKind, testId } from './types.ts';

type InputType = 'email' | 'tel' | 'url';

function TypedInput({
  type,
  field,
  value,
  onChange,
  onCommit,
  onCancel,
  autoFocus,
  id,
}: EditorProps & { type: InputType }) {
  return (
    <Input
      id={id}
      type={type}
      autoFocus={autoFocus}
      className="wb-input"
      data-testid={testId(field)}
      inputMode={type}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange?.(e.target.value)}
      onPressEnter={onCommit}
      onBlur={onCommit}
      onKeyDown={(e) => e.key === 'Escape' && onCancel?.()}
    />
  );
}

function LinkCell({ value, href }: CellProps & { href: (v: string) => string | null }) {
  if (typeof value !== 'string' || !value) return <span className="wb-empty" />;
  const h = href(value);
  return h ? (
    <a href={h} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()}>
      {value}
    </a>
  ) : (
    <span>{value}</span>
  );
}

const mailto = (v: string) => `mailto:${encodeURIComponent(v).replace('%40', '@')}`;
const tel = (v: string) => `tel:${v.replace(/[^\d+]/g, '')}`;
/** Only http(s) links become links: a stored `javascript:` could never be saved, and is not linked. */
const web = (v: string) => (isWebUrl(v) ? v : null);

export const emailKind: FieldKind = {
  Input: (p: EditorProps) => <TypedInput {...p} type="email" />,
  Cell: (p: CellProps) => <LinkCell {...p} href={mailto} />,
  edit: 'commit',
};
export const phoneKind: FieldKind = {
  Input: (p: EditorProps) => <TypedInput {...p} type="tel" />,
  Cell: (p: CellProps) => <LinkCell {...p} href={tel} />,
  edit: 'commit',
};
export const urlKind: FieldKind = {
  Input: (p: EditorProps) => <TypedInput {...p} type="url" />,
  Cell: (p: CellProps) => <LinkCell {...p} href={web} />,
  edit: 'commit',
};
