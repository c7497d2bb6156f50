/** Pickers over the project's tables, fields and pages (admin schema and pages APIs). */
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePanel } from './context.ts';
import { useDatasets, useEntities, useFields, usePages, usePrograms } from './data.ts';

interface PickerProps {
  value: string | undefined;
  onChange: (v: string) => void;
  status?: 'error';
  testId?: string;
}

/** The select every picker shares: searchable by label, clearable, '' when cleared. */
function ListSelect(
  props: PickerProps & {
    options: { value: string; label: string }[];
    placeholder: string;
    loading?: boolean;
    disabled?: boolean;
    notFound?: string;
  },
) {
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      loading={props.loading}
      disabled={props.disabled}
      value={props.value || undefined}
      onChange={(v?: string) => props.onChange(v ?? '')}
      placeholder={props.placeholder}
      status={props.status}
      data-testid={props.testId}
      options={props.options}
      notFoundContent={props.notFound}
      style={{ width: '100%' }}
    />
  );
}

export function EntityPicker(props: PickerProps) {
  const { t } = useTranslation();
  const { project } = usePanel();
  const { data, loading } = useEntities(project);
  return (
    <ListSelect
      {...props}
      loading={loading}
      placeholder={t('panel.pickEntity')}
      options={(data ?? []).map((e) => ({ value: e._id, label: `${e._name} (${e._code})` }))}
      notFound={loading ? t('panel.loading') : t('panel.noEntities')}
    />
  );
}

/** A dataset of the project (released ones show their version; drafts cannot be shown yet). */
export function DatasetPicker(props: PickerProps) {
  const { t } = useTranslation();
  const { project } = usePanel();
  const { data, loading } = useDatasets(project);
  return (
    <ListSelect
      {...props}
      loading={loading}
      placeholder={t('panel.pickDataset')}
      options={(data ?? []).map((d) => ({
        value: d._id,
        label: d._version ? `${d._name} (v${d._version})` : `${d._name} (${t('panel.notReleased')})`,
      }))}
      notFound={loading ? t('panel.loading') : t('panel.noDatasets')}
    />
  );
}

export function FieldPicker(props: PickerProps & { entity: string | undefined }) {
  const { t } = useTranslation();
  const { project } = usePanel();
  const { data, loading } = useFields(project, props.entity || undefined);
  return (
    <ListSelect
      {...props}
      loading={loading}
      disabled={!props.entity}
      placeholder={props.entity ? t('panel.pickField') : t('panel.pickEntityFirst')}
      options={(data ?? []).map((f) => ({ value: f._field, label: `${f._name} (${f._field})` }))}
    />
  );
}

export function PagePicker(props: PickerProps) {
  const { t } = useTranslation();
  const { project } = usePanel();
  const { data, loading } = usePages(project);
  return (
    <ListSelect
      {...props}
      loading={loading}
      placeholder={t('panel.pickPage')}
      options={(data ?? []).map((p) => ({ value: p._id, label: p.name }))}
      notFound={loading ? t('panel.loading') : t('panel.noPages')}
    />
  );
}

/** A widget of the page (by id), optionally only of some kinds. */
export function WidgetPicker(props: PickerProps & { kinds?: string[] }) {
  const { t } = useTranslation();
  const { widgets } = usePanel();
  const list = props.kinds ? widgets.filter((w) => props.kinds!.includes(w.kind)) : widgets;
  return (
    <ListSelect
      {...props}
      placeholder={t('panel.pickWidget')}
      options={list.map((w) => ({
        value: w.id,
        label: w.name ? `${w.name} · ${w.id}` : `${w.kind} · ${w.id}`,
      }))}
    />
  );
}

/** Programs of the project, several at once (a table's toolbar buttons); ids no longer listed stay removable. */
export function ProgramsPicker(props: {
  value: string[];
  onChange: (v: string[]) => void;
  status?: 'error';
  testId?: string;
}) {
  const { t } = useTranslation();
  const { project } = usePanel();
  const { data, loading } = usePrograms(project);
  const listed = data ?? [];
  return (
    <Select
      mode="multiple"
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={loading}
      value={props.value}
      onChange={(v: string[]) => props.onChange(v)}
      placeholder={t('panel.pickPrograms')}
      status={props.status}
      data-testid={props.testId}
      notFoundContent={loading ? t('panel.loading') : t('panel.noPrograms')}
      options={[
        ...listed.map((f) => ({ value: f._id, label: f._name })),
        ...props.value
          .filter((id) => !listed.some((f) => f._id === id))
          .map((id) => ({ value: id, label: id })),
      ]}
      style={{ width: '100%' }}
    />
  );
}
