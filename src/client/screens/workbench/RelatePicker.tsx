import { Select } from 'antd';
import { useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { wb } from '../../api/workbench.ts';
import { ViewProjectContext } from '../../views/project-context.ts';
import { WorkbenchContext } from './workbench-context.ts';

export interface Choice {
  value: string;
  label: string;
}

interface Props {
  /** The related table. */
  target: string;
  multiple?: boolean;
  value: string | string[] | null | undefined;
  /** Labels of the current value(s), so they show before any search. */
  known?: Choice[];
  onChange(value: string | string[] | null, choices: Choice[]): void;
  autoFocus?: boolean;
  className?: string;
  id?: string;
}

/** Pick records of another table by name (the filter call), one or several. */
export function RelatePicker({
  target,
  multiple,
  value,
  known = [],
  onChange,
  autoFocus,
  className,
  id,
}: Props) {
  const { t } = useTranslation();
  // In the workbench its project; in an end user's data view, the view's.
  const workbench = useContext(WorkbenchContext);
  const viewProject = useContext(ViewProjectContext);
  const p = workbench?.project._id ?? viewProject ?? '';
  const [options, setOptions] = useState<Choice[]>(known);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  function search(text: string) {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const n = ++seq.current;
      setLoading(true);
      wb.search(p, target, text)
        .then((a) => {
          if (n !== seq.current) return;
          const found = a.data.map((r) => ({ value: r._id, label: String(r.__name || r._id) }));
          // Keep the labels of what is chosen even when the search no longer finds it.
          const chosen = options.filter((o) => (Array.isArray(value) ? value : [value]).includes(o.value));
          setOptions([...chosen.filter((c) => !found.some((f) => f.value === c.value)), ...found]);
        })
        .catch(() => undefined)
        .finally(() => n === seq.current && setLoading(false));
    }, 250);
  }
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Select<string | string[]>
      id={id}
      className={className}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: search }}
      allowClear
      autoFocus={autoFocus}
      loading={loading}
      placeholder={t('grid.search')}
      value={value ?? undefined}
      options={options}
      onOpenChange={(open) => open && search('')}
      onChange={(v) => {
        const ids = v === undefined ? [] : Array.isArray(v) ? v : [v];
        onChange(
          v === undefined ? (multiple ? [] : null) : v,
          options.filter((o) => ids.includes(o.value)),
        );
      }}
      data-testid="relate-picker"
    />
  );
}
