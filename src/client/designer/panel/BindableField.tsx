/** A prop's control with the "fx" toggle: a literal value, or a binding `{ $expr }` edited as an expression. */
import { Button, Tooltip } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isBinding } from '../../../shared/expr/index.ts';
import { ExprInput } from './ExprInput.tsx';
import { literalToExpr } from './expr-hints.ts';
import { type EditorProps, FieldEditor } from './FieldEditor.tsx';

export function FxToggle(props: { on: boolean; onToggle: () => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={props.on ? t('panel.fxOff') : t('panel.fxOn')}>
      <Button
        size="small"
        type={props.on ? 'primary' : 'text'}
        className="panel-fx"
        onClick={props.onToggle}
        aria-pressed={props.on}
        aria-label={t('panel.fxOn')}
        data-testid={props.testId}
      >
        ƒx
      </Button>
    </Tooltip>
  );
}

/** Toggles a value between literal and binding; switching back restores the last literal (or the default). */
export function toggleBinding(value: unknown, lastLiteral: unknown, fallback: unknown): unknown {
  if (isBinding(value)) return lastLiteral !== undefined ? lastLiteral : structuredClone(fallback);
  return { $expr: literalToExpr(value) };
}

export function BindableField(
  props: EditorProps & { label: React.ReactNode; bindable: boolean; fallback: unknown; fxTestId?: string },
) {
  const lastLiteral = useRef<unknown>(undefined);
  const bound = isBinding(props.value);
  const toggle = () => {
    if (!bound) lastLiteral.current = props.value;
    props.onChange(toggleBinding(props.value, lastLiteral.current, props.fallback));
  };
  return (
    <div className="panel-field" data-prop={props.testId}>
      <div className="panel-label">
        <span>{props.label}</span>
        {props.bindable ? <FxToggle on={bound} onToggle={toggle} testId={props.fxTestId} /> : null}
      </div>
      {bound ? (
        <>
          <ExprInput
            value={(props.value as { $expr: string }).$expr}
            onChange={(src) => props.onChange({ $expr: src })}
            testId={props.testId ? `${props.testId}-expr` : undefined}
            showError={false}
          />
          {props.errors?.[''] ? (
            <div className="panel-error" role="alert">
              {props.errors['']}
            </div>
          ) : null}
        </>
      ) : (
        <FieldEditor {...props} />
      )}
    </div>
  );
}
