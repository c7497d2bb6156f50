/**
 * The generated props form of a kind: react-hook-form holds the values, the ajv resolver (the kind's
 * compiled props schema) checks each edit, errors show beside the field, and only a value that passes
 * goes out through onChange. Custom panels lay out the same fields (and may edit several props at once).
 */
import { Spin } from 'antd';
import { type ComponentType, Suspense, useCallback, useEffect, useMemo, useRef } from 'react';
import { type FieldErrors, type FieldValues, useForm } from 'react-hook-form';
import type { PanelProps, WidgetDef } from '../../../../widgets/define.ts';
import { newWidgetProps } from '../../../../widgets/localized-defaults.ts';
import { BindableField } from './BindableField.tsx';
import { usePanel } from './context.ts';
import { heldOver, propsToFollow, typingIn } from './follow-model.ts';
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
  // Turning a binding back into a value starts from the default in the panel's language.
  const defaults = useMemo(() => newWidgetProps(def, lang), [def, lang]);
  const form = useForm<FieldValues>({ defaultValues: props.values, resolver, mode: 'onChange' });
  const errors = localizeErrors(flattenErrors(form.formState.errors), lang);
  const values = form.watch();
  const root = useRef<HTMLDivElement>(null);
  /** Edits the schema refused, kept on screen with their error: prop → the model value typed over. */
  const held = useRef(new Map<string, string>());
  const model = useRef(props.values);
  model.current = props.values;

  // The form follows the model after changes made elsewhere (undo, redo, a co-editor, the JSON
  // editor), except in the text field being typed in (it follows when it loses the focus) and a
  // refused edit while its prop stays unchanged in the model (see follow-model.ts).
  const follow = useCallback(() => {
    const m = model.current;
    const { take, drop } = propsToFollow(form.getValues(), m, held.current, typingIn(root.current));
    for (const k of drop) held.current.delete(k);
    for (const k of take) form.setValue(k, m[k]);
    const stale = [...new Set([...take, ...drop])];
    if (stale.length) form.clearErrors(stale);
  }, [form]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new props object is a change of the model
  useEffect(follow, [props.values, follow]);
  // A text field left by the focus shows what the model holds (a co-editor may have changed it).
  useEffect(() => {
    const el = root.current;
    el?.addEventListener('focusout', follow);
    return () => el?.removeEventListener('focusout', follow);
  }, [follow]);

  const setProps = async (patch: Props) => {
    const keys = Object.keys(patch);
    const over = model.current;
    for (const k of keys) form.setValue(k, patch[k]);
    const ok = await form.trigger(keys);
    if (!ok) {
      for (const k of keys) held.current.set(k, heldOver(over, k));
      return;
    }
    for (const k of keys) held.current.delete(k);
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
        fallback={defaults[key]}
        testId={`prop-${key}`}
        fxTestId={`fx-${key}`}
        onChange={(v) => void setProps({ [key]: v })}
      />
    );
  };

  const Custom = props.custom;
  return (
    <div className="panel-form" data-testid="props-form" ref={root}>
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
