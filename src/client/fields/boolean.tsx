import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { readBoolean } from '../../shared/fields/values.ts';
import { type CellProps, type EditorProps, type FieldKind, testId } from './types.ts';

/** Yes, no, or empty: a select, since a switch cannot say "not answered". */
function BooleanInput({ field, value, onChange, onCancel, autoFocus, id }: EditorProps) {
  const { t } = useTranslation();
  const b = readBoolean(value);
  return (
    <Select
      id={id}
      autoFocus={autoFocus}
      allowClear
      className="wb-input"
      data-testid={testId(field)}
      value={b === null ? undefined : b ? 'yes' : 'no'}
      options={[
        { value: 'yes', label: t('fieldValue.yes') },
        { value: 'no', label: t('fieldValue.no') },
      ]}
      onChange={(v) => onChange?.(v === undefined ? null : v === 'yes')}
      onKeyDown={(e) => e.key === 'Escape' && onCancel?.()}
    />
  );
}

function BooleanCell({ value }: CellProps) {
  const { t } = useTranslation();
  const b = readBoolean(value);
  if (b === null) return <span className="wb-empty" />;
  return b ? (
    <Tag color="green" icon={<CheckOutlined />}>
      {t('fieldValue.yes')}
    </Tag>
  ) : (
    <Tag icon={<CloseOutlined />}>{t('fieldValue.no')}</Tag>
  );
}

export const booleanKind: FieldKind = { Input: BooleanInput, Cell: BooleanCell, edit: 'change' };
