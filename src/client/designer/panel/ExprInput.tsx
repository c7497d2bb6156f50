/** An expression input: live syntax check (error beside it) and completion of scope roots, widgets, functions. */
import { AutoComplete, Input } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { checkExpr } from '../../../shared/expr/index.ts';
import { usePanel } from './context.ts';
import { applyHint, exprHints } from './expr-hints.ts';

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
}) {
  const { t } = useTranslation();
  const { widgets } = usePanel();
  const hints = useMemo(() => exprHints(props.value, widgets), [props.value, widgets]);
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
