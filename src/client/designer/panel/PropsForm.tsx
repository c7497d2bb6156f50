/**
 * The generated props form of a kind: react-hook-form holds the values, the ajv resolver (the kind's
 * compiled props schema) checks each edit, errors show beside the field, and only a value that passes
 * goes out through onChange. Custom panels lay out the same fields (and may edit several props at once).
 */
import { Spin } from 'antd';
import { type ComponentType, Suspense, useMemo } from 'react';
import { type FieldErrors, type FieldValues, useForm } from 'react-hook-form';
import type { PanelProps, WidgetDef } from '../../../../widgets/define.ts';
import { BindableField } from './BindableField.tsx';
import { usePanel } from './context.ts';
import { localizeErrors } from './messages.ts';
import { kindResolver } from './resolver.ts';
import { editorOf, type Json, labelOf } from './schema-fields.ts';

export type Props = Record<string, unknown>;

/** What a custom panel gets: widgets/define.ts `PanelProps` (kinds' panels import nothing of the designer). */
export type CustomPanelProps = PanelProps;

/** Flattens react-hook-form's nested errors into dotted paths. */
export function flattenErrors(errors: FieldErrors | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (typeof n.message === 'string' && typeof n.type === 'string') {
      out[path] = n.message;
      return;
    }
    for (const [k, v] of Object.entries(n)) if (k !== 'ref') walk(v, path ? `${path}.${k}` : k);
  };
  walk(errors, '');
  return out;
}

export function PropsForm(props: {
  def: WidgetDef;
  values: Props;
  onChange: (patch: Props) => void;
  custom?: ComponentType<CustomPanelProps>;
}) {
  const { def } = props;
  const { lang } = usePanel();
  const resolver = useMemo(() => kindResolver(def.kind), [def.kind]);
  const form = useForm<FieldValues>({
    defaultValues: props.values,
    values: props.values,
    resolver,
    mode: 'onChange',
    // An edit that did not pass stays on screen (with its error) when other props change.
    resetOptions: { keepDirtyValues: true, keepErrors: true },
  });
  const errors = localizeErrors(flattenErrors(form.formState.errors), lang);
  const values = form.watch();

  const setProps = async (patch: Props) => {
    const keys = Object.keys(patch);
    for (const k of keys) form.setValue(k, patch[k], { shouldDirty: true });
    const ok = await form.trigger(keys);
    if (!ok) return;
    // Accepted: the value becomes the field's new baseline, so a later outside change (undo) shows.
    for (const k of keys) form.resetField(k, { defaultValue: patch[k] });
    props.onChange(patch);
  };

  const field = (key: string) => {
    const s = def.schema.properties[key] as Json | undefined;
    if (!s) return null;
    const own: Record<string, string> = {};
    for (const [p, m] of Object.entries(errors)) {
      if (p === key) own[''] = m;
      else if (p.startsWith(`${key}.`)) own[p.slice(key.length + 1)] = m;
    }
    return (
      <BindableField
        key={key}
        label={labelOf(s, key, lang)}
        schema={s}
        editor={editorOf(s)}
        value={values[key]}
        errors={own}
        scope={[values]}
        bindable={s['x-bindable'] !== false}
        fallback={def.defaults[key]}
        testId={`prop-${key}`}
        fxTestId={`fx-${key}`}
        onChange={(v) => void setProps({ [key]: v })}
      />
    );
  };

  const Custom = props.custom;
  return (
    <div className="panel-form" data-testid="props-form">
      {Custom ? (
        <Suspense fallback={<Spin size="small" />}>
          <Custom
            def={def}
            values={values}
            field={field}
            setProps={(p) => void setProps(p)}
            errors={errors}
            lang={lang}
            label={(key) => labelOf((def.schema.properties[key] ?? {}) as Json, key, lang)}
          />
        </Suspense>
      ) : (
        Object.keys(def.schema.properties).map(field)
      )}
    </div>
  );
}
