import { Form, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NUMBERING_MODEL, NUMBERING_PREFIX, readRule } from '../../../../shared/admin/numbering.ts';
import { readOptionSet, SELECTION_MODEL } from '../../../../shared/admin/option-sets.ts';
import { queryShare } from '../../../api/share.ts';
import { useProject } from '../../workbench/workbench-context.ts';

/**
 * The field editor's inputs for settings kept in /system/share: an option field may take its values
 * from an option set (`selection`), a text field its value from an auto-numbering rule (`increment`).
 */
export function FieldShareInputs({ type }: { type: string }) {
  const { t } = useTranslation();
  const p = useProject()._id;
  const optionType = type === 'option' || type === 'options';
  const [sets, setSets] = useState<{ value: string; label: string }[]>([]);
  const [rules, setRules] = useState<{ value: string; label: string }[]>([]);
  useEffect(() => {
    if (optionType)
      void queryShare(p, SELECTION_MODEL, 'project').then((items) =>
        setSets(
          items.map((i) => {
            const s = readOptionSet(i._value);
            return {
              value: i._key,
              label: `${s?.name || i._key} (${s?.list.slice(0, 3).join(', ') ?? ''}…)`,
            };
          }),
        ),
      );
    if (type === 'string')
      void queryShare(p, NUMBERING_MODEL, 'project', '^increment\\.').then((items) =>
        setRules(
          items.map((i) => ({
            value: i._key.slice(NUMBERING_PREFIX.length),
            label: readRule(i._value)?.name || i._key.slice(NUMBERING_PREFIX.length),
          })),
        ),
      );
  }, [p, type, optionType]);
  if (optionType)
    return (
      <Form.Item name="selection" label={t('adm.share.fieldSet')}>
        <Select
          allowClear
          placeholder={t('adm.share.fieldSetNone')}
          options={sets}
          data-testid="field-selection"
        />
      </Form.Item>
    );
  if (type === 'string')
    return (
      <Form.Item name="increment" label={t('adm.share.fieldNumbering')}>
        <Select
          allowClear
          placeholder={t('adm.share.fieldNumberingNone')}
          options={rules}
          data-testid="field-increment"
        />
      </Form.Item>
    );
  return null;
}
