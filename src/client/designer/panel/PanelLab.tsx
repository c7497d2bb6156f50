/**
 * The widget gallery (/dev/panel-lab): every kind rendered from a local instance, its property panel
 * bound to that instance, and the resulting JSON; plus the page panel on a local page document.
 */
import { Card, Empty, Input, Layout, Menu, Spin, Typography } from 'antd';
import { Component, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { palette, WIDGETS } from '../../../../widgets/index.ts';
import { staticRuntime, WidgetRuntimeProvider } from '../../../../widgets/kit/widget-context.ts';
import { resolveProps } from '../../../shared/expr/index.ts';
import {
  DEFAULT_PAGE_LAYOUT,
  type PageDocument,
  type WidgetInstance,
} from '../../../shared/page-document.ts';
import { useProject } from '../../screens/workbench/workbench-context.ts';
import { PagePanel } from './PagePanel.tsx';
import { PropertyPanel } from './PropertyPanel.tsx';

type Patch = Parameters<Parameters<typeof PropertyPanel>[0]['onChange']>[0];

function instanceOf(kind: string): WidgetInstance {
  const def = WIDGETS.find((w) => w.kind === kind)!;
  return {
    id: `w_${kind.replace(/-/g, '_')}`,
    kind,
    version: def.version,
    props: structuredClone(def.defaults),
    layout: { pc: { x: 0, y: 0, w: 20, h: 4 }, mobile: { x: 0, y: 0, w: 38, h: 4 } },
  };
}

/** Applies a panel patch: props merged shallowly (undefined deletes), events replaced, name set. */
export function applyPatch(w: WidgetInstance, patch: Patch): WidgetInstance {
  const next = { ...w };
  if (patch.props) {
    const props = { ...w.props };
    for (const [k, v] of Object.entries(patch.props)) {
      if (v === undefined) delete props[k];
      else props[k] = v;
    }
    next.props = props;
  }
  if (patch.events) {
    if (Object.keys(patch.events).length) next.events = patch.events;
    else delete next.events;
  }
  if (patch.name !== undefined) {
    if (patch.name) next.name = patch.name;
    else delete next.name;
  }
  return next;
}

class PreviewBoundary extends Component<{ children: ReactNode; reset: string }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  override componentDidUpdate(prev: { reset: string }) {
    if (prev.reset !== this.props.reset && this.state.error) this.setState({ error: null });
  }
  override render() {
    return this.state.error ? (
      <Typography.Text type="danger">{this.state.error}</Typography.Text>
    ) : (
      this.props.children
    );
  }
}

function Preview(props: { widget: WidgetInstance }) {
  const def = WIDGETS.find((w) => w.kind === props.widget.kind)!;
  const runtime = useMemo(() => staticRuntime({ mode: 'design' }), []);
  const View = def.render;
  const resolved = resolveProps(props.widget.props, { state: {}, params: {}, user: {}, widgets: {} });
  return (
    <WidgetRuntimeProvider runtime={runtime}>
      <div
        className="lab-preview"
        style={{ width: Math.min(def.meta.size.width, 560), minHeight: Math.min(def.meta.size.height, 320) }}
      >
        <PreviewBoundary reset={JSON.stringify(props.widget.props)}>
          <Suspense fallback={<Spin />}>
            <View id={props.widget.id} props={resolved} />
          </Suspense>
        </PreviewBoundary>
      </div>
    </WidgetRuntimeProvider>
  );
}

export default function PanelLab() {
  const { t, i18n } = useTranslation();
  const project = useProject();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const [instances, setInstances] = useState<Record<string, WidgetInstance>>(() =>
    Object.fromEntries(WIDGETS.map((w) => [w.kind, instanceOf(w.kind)])),
  );
  const [page, setPage] = useState<Omit<PageDocument, 'widgets'>>(() => ({
    id: 'lab',
    title: 'Lab page',
    version: 1,
    layout: structuredClone(DEFAULT_PAGE_LAYOUT) as unknown as PageDocument['layout'],
  }));
  const [selected, setSelected] = useState<string>(
    // The kind in `?kind=`, else the palette's first.
    () => new URLSearchParams(location.search).get('kind') ?? WIDGETS[0]!.kind,
  );
  const [query, setQuery] = useState('');
  const targets = useMemo(
    () => Object.values(instances).map((w) => ({ id: w.id, name: w.name, kind: w.kind })),
    [instances],
  );
  const q = query.trim().toLowerCase();
  const groups = palette()
    .map((g) => ({
      ...g,
      items: g.items.filter(
        (w) =>
          !q ||
          w.kind.includes(q) ||
          w.meta.title.zh.includes(q) ||
          w.meta.title.en.toLowerCase().includes(q),
      ),
    }))
    .filter((g) => g.items.length);
  const widget = instances[selected];
  const pageWidgets = useMemo(() => Object.values(instances), [instances]);

  return (
    <Layout className="panel-lab" data-testid="panel-lab">
      <Layout.Sider width={220} theme="light" className="lab-kinds">
        <Typography.Title level={5} style={{ margin: 12 }}>
          {t('lab.title')}
        </Typography.Title>
        <Input.Search
          placeholder={t('lab.search')}
          allowClear
          onChange={(e) => setQuery(e.target.value)}
          style={{ margin: '0 12px 8px', width: 196 }}
          data-testid="lab-search"
        />
        <Menu
          mode="inline"
          selectedKeys={[selected]}
          onClick={({ key }) => setSelected(key)}
          data-testid="lab-kinds"
          items={[
            { key: '__page', label: t('lab.page') },
            ...groups.map((g) => ({
              type: 'group' as const,
              key: g.category,
              label: t(`lab.category.${g.category}`),
              children: g.items.map((w) => ({ key: w.kind, label: `${w.meta.title[lang]} · ${w.kind}` })),
            })),
          ]}
        />
      </Layout.Sider>
      <Layout.Content className="lab-main">
        <Typography.Paragraph type="secondary">{t('lab.intro')}</Typography.Paragraph>
        {selected === '__page' ? (
          <div className="lab-columns">
            <Card size="small" className="lab-panel">
              <PagePanel
                page={{ ...page, widgets: pageWidgets }}
                project={project._id}
                onChange={(patch) =>
                  setPage((p) => {
                    const next = { ...p, ...patch } as Record<string, unknown>;
                    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k];
                    return next as unknown as Omit<PageDocument, 'widgets'>;
                  })
                }
              />
            </Card>
            <Card size="small" title={t('lab.json')} className="lab-json">
              <pre data-testid="lab-json">{JSON.stringify(page, null, 2)}</pre>
            </Card>
          </div>
        ) : widget ? (
          <div className="lab-columns">
            <div className="lab-left">
              <Card size="small" className="lab-preview-card">
                <Preview widget={widget} />
              </Card>
              <Card size="small" title={t('lab.json')} className="lab-json">
                <pre data-testid="lab-json">{JSON.stringify(widget, null, 2)}</pre>
              </Card>
            </div>
            <Card size="small" className="lab-panel">
              <PropertyPanel
                key={widget.kind}
                widget={widget}
                project={project._id}
                widgets={targets}
                onChange={(patch) =>
                  setInstances((all) => ({ ...all, [widget.kind]: applyPatch(all[widget.kind]!, patch) }))
                }
              />
            </Card>
          </div>
        ) : (
          <Empty />
        )}
      </Layout.Content>
    </Layout>
  );
}
