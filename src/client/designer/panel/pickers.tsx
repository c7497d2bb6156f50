/** Pickers over the project's tables, fields and pages (admin schema and pages APIs). */
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePanel } from './context.ts';
import { useEntities, useFields, usePages } from './data.ts';

interface PickerProps {
  value: string | undefined;
  onChange: (v: string) => void;
  status?: 'error';
  testId?: string;
}

export function EntityPicker(props: PickerProps) {
  const { t } = useTranslation();
  const { project } = usePanel();
  const { data, loading } = useEntities(project);
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      loading={loading}
      value={props.value || undefined}
      onChange={(v?: string) => props.onChange(v ?? '')}
      placeholder={t('panel.pickEntity')}
      status={props.status}
      data-testid={props.testId}
      options={(data ?? []).map((e) => ({ value: e._id, label: `${e._name} (${e._code})` }))}
      notFoundContent={loading ? t('panel.loading') : t('panel.noEntities')}
      style={{ width: '100%' }}
    />
  );
}

export function FieldPicker(props: PickerProps & { entity: string | undefined }) {
  const { t } = useTranslation();
  const { project } = usePanel();
  const { data, loading } = useFields(project, props.entity || undefined);
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      loading={loading}
      disabled={!props.entity}
      value={props.value || undefined}
      onChange={(v?: string) => props.onChange(v ?? '')}
      placeholder={props.entity ? t('panel.pickField') : t('panel.pickEntityFirst')}
      status={props.status}
      data-testid={props.testId}
      options={(data ?? []).map((f) => ({ value: f._field, label: `${f._name} (${f._field})` }))}
      style={{ width: '100%' }}
    />
  );
}

export function PagePicker(props: PickerProps) {
  const { t } = useTranslation();
  const { project } = usePanel();
  const { data, loading } = usePages(project);
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      loading={loading}
      value={props.value || undefined}
      onChange={(v?: string) => props.onChange(v ?? '')}
      placeholder={t('panel.pickPage')}
      status={props.status}
      data-testid={props.testId}
      options={(data ?? []).map((p) => ({ value: p._id, label: p.name }))}
      notFoundContent={loading ? t('panel.loading') : t('panel.noPages')}
      style={{ width: '100%' }}
    />
  );
}

/** A widget of the page (by id), optionally only of some kinds. */
export function WidgetPicker(props: PickerProps & { kinds?: string[] }) {
  const { t } = useTranslation();
  const { widgets } = usePanel();
  const list = props.kinds ? widgets.filter((w) => props.kinds!.includes(w.kind)) : widgets;
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      value={props.value || undefined}
      onChange={(v?: string) => props.onChange(v ?? '')}
      placeholder={t('panel.pickWidget')}
      status={props.status}
      data-testid={props.testId}
      options={list.map((w) => ({
        value: w.id,
        label: w.name ? `${w.name} · ${w.id}` : `${w.kind} · ${w.id}`,
      }))}
      style={{ width: '100%' }}
    />
  );
}
