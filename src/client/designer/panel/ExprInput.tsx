/** An expression input: live syntax check (error beside it) and completion of scope roots, widgets, functions. */
import { AutoComplete, Input } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { checkExpr } from '../../../shared/expr/index.ts';
import { usePanel } from './context.ts';
import { applyHint, exprHints, variableHints } from './expr-hints.ts';

export function exprError(src: string): string | undefined {
  if (!src.trim()) return undefined;
  const r = checkExpr(src);
  return r.ok ? undefined : r.error.message;
}

export function ExprInput(props: {
  value: string;
  onChange: (src: string) => void;
  placeholder?: string;
  testId?: string;
  /** Shows the syntax error below the input (off when the caller shows it). */
  showError?: boolean;
  /** What the expression can read, when not the page's scope (a program step's variables). */
  vars?: { path: string; detail?: string }[];
  ariaLabel?: string;
}) {
  const { t } = useTranslation();
  const { widgets } = usePanel();
  const { vars } = props;
  const hints = useMemo(
    () => (vars ? variableHints(props.value, vars) : exprHints(props.value, widgets)),
    [props.value, widgets, vars],
  );
  const error = exprError(props.value);
  return (
    <div className="panel-expr">
      <AutoComplete
        value={props.value}
        options={hints.map((h) => ({
          value: applyHint(props.value, h),
          label: (
            <span data-hint={h.insert}>
              <code>{h.insert}</code>{' '}
              <small className="panel-muted">{h.detail ?? t(`panel.hint.${h.kind}`)}</small>
            </span>
          ),
        }))}
        onChange={(v: string) => props.onChange(v)}
        style={{ width: '100%' }}
        popupMatchSelectWidth={false}
      >
        <Input
          prefix={<span className="panel-fx-prefix">ƒx</span>}
          placeholder={props.placeholder ?? t('panel.exprPlaceholder')}
          status={error ? 'error' : undefined}
          data-testid={props.testId}
          aria-label={props.ariaLabel}
          spellCheck={false}
        />
      </AutoComplete>
      {props.showError !== false && error ? (
        <div className="panel-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}
