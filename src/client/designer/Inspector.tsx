/**
 * The right-hand inspector of the selected widget: name, layout of the current mode, hidden/locked,
 * and an "Advanced (JSON)" editor of the props checked against the kind's schema before it applies.
 * The schema-generated property panel plugs in here through `applyWidgetPatch`.
 */
import { Alert, Button, Empty, Form, Input, InputNumber, Space, Switch, Typography } from 'antd';
import {
  memo,
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useTranslation } from 'react-i18next';
import { pageValidator, WIDGETS } from '../../../widgets/index.ts';
import type { GridPos } from '../../shared/page-document.ts';
import type { DocModel, WidgetView } from './model.ts';
import { PagePanel, PropertyPanel } from './panel/index.ts';
import type { PropertyPanelProps } from './panel/PropertyPanel.tsx';
import { useDesigner, type WidgetPatch } from './store.ts';

/**
 * Every widget as a target for bindings and actions. The same array while ids, names and kinds stay
 * the same, so a move or a prop edit elsewhere on the page does not re-render the whole panel.
 */
function useWidgetTargets(model: DocModel | null) {
  const prev = useRef<{ id: string; name?: string; kind: string }[]>([]);
  const compute = useCallback(() => {
    const list = model?.list() ?? [];
    const old = prev.current;
    if (
      old.length !== list.length ||
      list.some((w, i) => old[i]!.id !== w.id || old[i]!.name !== w.name || old[i]!.kind !== w.kind)
    )
      prev.current = list.map((w) => ({ id: w.id, name: w.name, kind: w.kind }));
    return prev.current;
  }, [model]);
  const revision = useSyncExternalStore(
    useCallback((l) => model?.subscribeAny(l) ?? (() => {}), [model]),
    () => model?.revision ?? 0,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: revision marks a change of the model's widgets
  return useMemo(compute, [compute, revision]);
}

/**
 * The property panel re-renders only when what it shows changes: a move or resize (a new view of the
 * widget with the same props) leaves it alone. Props and events are compared by value (every new
 * view of a widget carries fresh copies).
 */
const MemoPanel = memo(PropertyPanel, (a: PropertyPanelProps, b: PropertyPanelProps) => {
  const x = a.widget;
  const y = b.widget;
  return (
    a.project === b.project &&
    a.widgets === b.widgets &&
    a.onChange === b.onChange &&
    x.id === y.id &&
    x.kind === y.kind &&
    x.name === y.name &&
    x.broken === y.broken &&
    x.brokenReason === y.brokenReason &&
    JSON.stringify(x.props) === JSON.stringify(y.props) &&
    JSON.stringify(x.events) === JSON.stringify(y.events)
  );
});

/** The page settings shown when nothing is selected. */
function PageSettings(props: { model: DocModel; project: string; readOnly: boolean }) {
  const { model } = props;
  const version = useSyncExternalStore(
    useCallback((l) => model.subscribePage(l), [model]),
    () => model.getPageVersion(),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: version marks a change of the page settings
  const page = useMemo(() => model.pageSettings(), [model, version]);
  return (
    <fieldset disabled={props.readOnly} className="dz-fieldset">
      <PagePanel
        page={page}
        project={props.project}
        onChange={(patch) => {
          const st = useDesigner.getState();
          st.applyPagePatch(patch);
        }}
      />
    </fieldset>
  );
}

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

/**
 * Runs `run` after the next frame has painted (a message posted from its animation frame runs after
 * the paint), or after 100 ms where frames do not come (a hidden tab). Returns a cancel function.
 */
function afterPaint(run: () => void): () => void {
  let live = true;
  const once = () => {
    if (!live) return;
    live = false;
    run();
  };
  const timer = setTimeout(once, 100);
  let frame = 0;
  let ch: MessageChannel | undefined;
  if (typeof requestAnimationFrame === 'function' && typeof MessageChannel === 'function') {
    ch = new MessageChannel();
    ch.port1.onmessage = once;
    const port = ch.port2;
    frame = requestAnimationFrame(() => port.postMessage(0));
  }
  return () => {
    live = false;
    clearTimeout(timer);
    if (frame) cancelAnimationFrame(frame);
    ch?.port1.close();
  };
}

/**
 * The inspector follows the selection one step behind the canvas: a click (or a delete, an undo)
 * shows on the canvas at once, and the panel of the newly selected widget (antd forms: the costly
 * part) renders after that frame has painted, as a deferred, interruptible update (started at once,
 * its first unit of work could hold the frame that shows the selection). While that is pending the
 * old panel is hidden, so nothing edits the previous widget by mistake. A new view of the same
 * selection (an edit) follows as a deferred update without waiting for a paint.
 */
export function Inspector(props: { project: string }) {
  const widget = useSelectedWidget();
  const count = useDesigner((s) => s.selection.size);
  const model = useDesigner((s) => s.model);
  // The widget list (binding and action targets) follows with the selection, after the paint: a
  // duplicate, a paste, a delete or an undo changes both, and the panel renders once, for the new
  // selection with the new list. (A deferred value of the list re-rendered the old selection's whole
  // panel first, for nothing: a megabyte or two of antd render per such edit.)
  const targets = useWidgetTargets(model);
  const [shown, setShown] = useState({ widget, count, targets });
  useEffect(() => {
    if (shown.widget === widget && shown.count === count && shown.targets === targets) return;
    const next = () => startTransition(() => setShown({ widget, count, targets }));
    // A new view of the same selection (an edit in the panel, a rename) and a new list under it (a
    // co-editor's widget) follow without waiting for a paint.
    if (shown.widget?.id === widget?.id && shown.count === count) {
      next();
      return;
    }
    return afterPaint(next);
  }, [widget, count, targets, shown]);
  // The kinds' own property panels (widgets/<kind>/panel.tsx) are lazy chunks: fetched once the
  // designer is idle, so the first selection of such a kind draws its panel without waiting for one.
  useEffect(() => {
    const load = () => {
      for (const w of WIDGETS) void w.panel?.load().catch(() => undefined);
    };
    if (typeof requestIdleCallback !== 'function') return afterPaint(load);
    const id = requestIdleCallback(load, { timeout: 3000 });
    return () => cancelIdleCallback(id);
  }, []);
  const stale = shown.widget?.id !== widget?.id || shown.count !== count;
  return (
    <div className="dz-inspector" data-testid="inspector" data-stale={stale || undefined}>
      <InspectorBody
        project={props.project}
        widget={shown.widget}
        count={shown.count}
        targets={shown.targets}
      />
    </div>
  );
}

const InspectorBody = memo(function InspectorBody(props: {
  project: string;
  widget: WidgetView | undefined;
  count: number;
  targets: PropertyPanelProps['widgets'];
}) {
  const { t } = useTranslation();
  const { widget, count, targets } = props;
  const model = useDesigner((s) => s.model);
  const mode = useDesigner((s) => s.mode);
  const readOnly = useDesigner((s) => s.readOnly);
  const id = widget?.id;
  const onChange = useCallback(
    (patch: WidgetPatch) => {
      if (id) useDesigner.getState().applyWidgetPatch(id, patch);
    },
    [id],
  );
  if (!widget)
    return (
      <>
        {count > 1 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('designer.multiSelected', { count })} />
        ) : model ? (
          <>
            <Typography.Text type="secondary">{t('designer.nothingSelected')}</Typography.Text>
            <PageSettings model={model} project={props.project} readOnly={readOnly} />
          </>
        ) : null}
      </>
    );
  const st = useDesigner.getState();
  const pos = widget.layout[mode];
  const setPos = (k: keyof GridPos, v: number | null) => {
    if (v === null || !Number.isFinite(v)) return;
    st.setLayouts({ [widget.id]: { ...pos, [k]: Math.max(k === 'w' || k === 'h' ? 1 : 0, Math.round(v)) } });
  };
  return (
    <fieldset disabled={readOnly} className="dz-fieldset">
      <MemoPanel widget={widget} project={props.project} widgets={targets} onChange={onChange} />
      <Form layout="vertical" size="small">
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
    </fieldset>
  );
});
