/** Per-widget error boundary: a failing or broken widget is shown marked and the page goes on. */
import { Alert } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export class WidgetBoundary extends Component<
  { id: string; kind: string; children: ReactNode },
  { error?: string }
> {
  override state: { error?: string } = {};
  static getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  override componentDidCatch(e: unknown, info: ErrorInfo) {
    console.warn(`widget ${this.props.id} (${this.props.kind}) failed`, e, info.componentStack);
  }
  override render() {
    if (this.state.error !== undefined)
      return <BrokenWidget id={this.props.id} kind={this.props.kind} reason={this.state.error} />;
    return this.props.children;
  }
}

export function BrokenWidget({ id, kind, reason }: { id: string; kind: string; reason?: string }) {
  const { t } = useTranslation();
  return (
    <div className="lc-broken" data-broken={id} title={reason}>
      <Alert type="error" showIcon title={t('runtime.broken', { kind })} description={reason} />
    </div>
  );
}
