/** The property panel of one widget: name, props (generated or custom), events → actions. */
import './panel.css';
import { Alert, Input } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getWidget } from '../../../../widgets/index.ts';
import type { WidgetInstance } from '../../../shared/page-document.ts';
import { hasScriptTag } from '../../../shared/sanitize.ts';
import { currentLang } from '../../i18n/index.ts';
import { PanelContext } from './context.ts';
import { EventsEditor } from './EventsEditor.tsx';
import { PanelTabs } from './PanelTabs.tsx';
import { PropsForm } from './PropsForm.tsx';

export interface PropertyPanelProps {
  widget: WidgetInstance;
  project: string;
  widgets: { id: string; name?: string; kind: string }[];
  onChange(patch: {
    props?: Record<string, unknown>;
    events?: Record<string, unknown[]>;
    name?: string;
  }): void;
}

/** The widget's display name (layers, pickers); a name with a script tag is named and not sent. */
function NameField(props: { name: string | undefined; id: string; onChange: (name: string) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(props.name ?? '');
  useEffect(() => setDraft(props.name ?? ''), [props.name]);
  const bad = hasScriptTag(draft);
  return (
    <div className="panel-field">
      <div className="panel-label">
        <span>{t('panel.name')}</span>
      </div>
      <Input
        value={draft}
        maxLength={100}
        placeholder={props.id}
        status={bad ? 'error' : undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          if (!hasScriptTag(e.target.value)) props.onChange(e.target.value);
        }}
        data-testid="widget-name"
      />
      {bad ? <div className="panel-error">{t('panel.noScript')}</div> : null}
    </div>
  );
}

export function PropertyPanel(props: PropertyPanelProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLang();
  const def = getWidget(props.widget.kind);
  const ctx = useMemo(
    () => ({ project: props.project, widgets: props.widgets, lang }),
    [props.project, props.widgets, lang],
  );
  // A kind's own panel (widgets/<kind>/panel.tsx): drawn directly once loaded, else lazily.
  const custom = useMemo(() => (def?.panel ? (def.panel.loaded() ?? def.panel.lazy) : undefined), [def]);
  const describe = useMemo(() => {
    const byName = new Map(def?.events.map((e) => [e.name, e]));
    return (name: string) => {
      const e = byName.get(name);
      return e ? { title: e.title[lang], hint: e.doc?.[lang] } : undefined;
    };
  }, [def, lang]);
  if (!def)
    return <Alert type="error" showIcon message={t('panel.unknownKind', { kind: props.widget.kind })} />;
  const title = def.meta.title[i18n.language === 'zh' ? 'zh' : 'en'];
  return (
    <PanelContext.Provider value={ctx}>
      <div className="property-panel" data-testid="property-panel" data-kind={def.kind}>
        <div className="panel-head">
          <strong>{title}</strong> <code className="panel-muted">{props.widget.id}</code>
        </div>
        {props.widget.broken ? <Alert type="warning" showIcon message={props.widget.brokenReason} /> : null}
        <NameField
          name={props.widget.name}
          id={props.widget.id}
          onChange={(name) => props.onChange({ name })}
        />
        <PanelTabs
          items={[
            {
              key: 'props',
              label: t('panel.props'),
              children: (
                <PropsForm
                  key={`${props.widget.id}:${def.kind}`}
                  def={def}
                  values={props.widget.props}
                  custom={custom}
                  onChange={(p) => props.onChange({ props: p })}
                />
              ),
            },
            {
              key: 'events',
              label: t('panel.events'),
              children: (
                <EventsEditor
                  key={props.widget.id}
                  events={props.widget.events as Record<string, Record<string, unknown>[]> | undefined}
                  eventNames={def.events.map((e) => e.name)}
                  describe={describe}
                  onChange={(events) => props.onChange({ events })}
                />
              ),
            },
          ]}
        />
      </div>
    </PanelContext.Provider>
  );
}
