/**
 * The right-hand inspector of the selected widget: name, layout of the current mode, hidden/locked,
 * and an "Advanced (JSON)" editor of the props checked against the kind's schema before it applies.
 * The schema-generated property panel plugs in here through `applyWidgetPatch`.
 */
import { Alert, Button, Empty, Form, Input, InputNumber, Space, Switch, Typography } from 'antd';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getWidget, pageValidator } from '../../../widgets/index.ts';
import type { GridPos } from '../../../widgets/restore.ts';
import type { WidgetView } from './model.ts';
import { useDesigner } from './store.ts';

function useSelectedWidget(): WidgetView | undefined {
  const model = useDesigner((s) => s.model);
  const selection = useDesigner((s) => s.selection);
  const id = selection.size === 1 ? [...selection][0]! : null;
  return useSyncExternalStore(
    useCallback((l) => (model && id ? model.subscribeWidget(id, l) : () => {}), [model, id]),
    () => (model && id ? model.get(id) : undefined),
  );
}

/** Props as JSON text, checked by ajv against the kind's schema; applied only when valid. */
function JsonProps(props: { widget: WidgetView }) {
  const { t } = useTranslation();
  const { widget } = props;
  const [text, setText] = useState(() => JSON.stringify(widget.props, null, 2));
  const [errors, setErrors] = useState<string[]>([]);
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (!dirty) setText(JSON.stringify(widget.props, null, 2));
  }, [widget.props, dirty]);

  const apply = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setErrors([`${t('designer.jsonSyntax')}: ${e instanceof Error ? e.message : String(e)}`]);
      return;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      setErrors([t('designer.jsonObject')]);
      return;
    }
    const r = pageValidator().validateProps(widget.kind, parsed);
    if (r && !r.ok) {
      setErrors(r.errors.map((e) => `${e.path || '/'} ${e.message}`));
      return;
    }
    const next = parsed as Record<string, unknown>;
    const patch: Record<string, unknown> = { ...next };
    for (const k of Object.keys(widget.props)) if (!(k in next)) patch[k] = undefined;
    const st = useDesigner.getState();
    st.breakStep();
    st.applyWidgetPatch(widget.id, { props: patch });
    st.breakStep();
    setErrors([]);
    setDirty(false);
  };

  return (
    <div className="dz-json">
      <Input.TextArea
        value={text}
        rows={12}
        spellCheck={false}
        className="dz-code"
        aria-label={t('designer.advancedJson')}
        data-testid="props-json"
        onChange={(e) => {
          setText(e.target.value);
          setDirty(true);
        }}
      />
      {errors.length ? (
        <Alert
          type="error"
          showIcon
          data-testid="props-json-errors"
          message={t('designer.jsonInvalid')}
          description={
            <ul className="dz-errors">
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          }
        />
      ) : null}
      <Space>
        <Button size="small" type="primary" onClick={apply} disabled={!dirty} data-testid="props-json-apply">
          {t('designer.apply')}
        </Button>
        <Button
          size="small"
          disabled={!dirty}
          onClick={() => {
            setDirty(false);
            setErrors([]);
            setText(JSON.stringify(widget.props, null, 2));
          }}
        >
          {t('designer.revert')}
        </Button>
      </Space>
    </div>
  );
}

export function Inspector() {
  const { t, i18n } = useTranslation();
  const widget = useSelectedWidget();
  const mode = useDesigner((s) => s.mode);
  const count = useDesigner((s) => s.selection.size);
  if (!widget)
    return (
      <div className="dz-inspector" data-testid="inspector">
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={count > 1 ? t('designer.multiSelected', { count }) : t('designer.nothingSelected')}
        />
      </div>
    );
  const st = useDesigner.getState();
  const def = getWidget(widget.kind);
  const pos = widget.layout[mode];
  const setPos = (k: keyof GridPos, v: number | null) => {
    if (v === null || !Number.isFinite(v)) return;
    st.setLayouts({ [widget.id]: { ...pos, [k]: Math.max(k === 'w' || k === 'h' ? 1 : 0, Math.round(v)) } });
  };
  return (
    <div className="dz-inspector" data-testid="inspector">
      <Typography.Text strong>
        {def?.meta.title[i18n.language === 'zh' ? 'zh' : 'en'] ?? widget.kind}{' '}
        <Typography.Text type="secondary" code>
          {widget.id}
        </Typography.Text>
      </Typography.Text>
      {widget.broken ? <Alert type="warning" showIcon message={widget.brokenReason} /> : null}
      <Form layout="vertical" size="small">
        <Form.Item label={t('designer.name')}>
          <Input
            value={widget.name ?? ''}
            data-testid="inspector-name"
            onChange={(e) => st.applyWidgetPatch(widget.id, { name: e.target.value || undefined })}
            onBlur={() => st.breakStep()}
          />
        </Form.Item>
        <Form.Item label={t(mode === 'pc' ? 'designer.layoutPc' : 'designer.layoutMobile')}>
          <Space wrap>
            {(['x', 'y', 'w', 'h'] as const).map((k) => (
              <InputNumber
                key={k}
                prefix={k}
                min={k === 'w' || k === 'h' ? 1 : 0}
                value={pos[k]}
                style={{ width: 90 }}
                data-testid={`inspector-${k}`}
                onChange={(v) => setPos(k, v)}
              />
            ))}
          </Space>
        </Form.Item>
        <Space size="large">
          <Form.Item label={t('designer.hidden')}>
            <Switch
              checked={widget.hidden === true}
              disabled={typeof widget.hidden === 'object'}
              onChange={(v) => st.setField(widget.id, 'hidden', v || undefined)}
              data-testid="inspector-hidden"
            />
          </Form.Item>
          <Form.Item label={t('designer.locked')}>
            <Switch
              checked={!!widget.locked}
              onChange={(v) => st.setField(widget.id, 'locked', v || undefined)}
              data-testid="inspector-locked"
            />
          </Form.Item>
        </Space>
        <Form.Item label={t('designer.advancedJson')}>
          <JsonProps widget={widget} key={widget.id} />
        </Form.Item>
      </Form>
    </div>
  );
}
