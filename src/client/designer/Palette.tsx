/**
 * The palette: kinds by category with search (zh and en titles, kind name), each an HTML-draggable
 * tile. Dropping uses the canvas grid's HTML drop support (no second drag library): the grid shows
 * its placeholder snapped to cells, and nested grids take the drop in containers.
 */
import { Collapse, Empty, Input } from 'antd';
import { type ComponentType, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { palette } from '../../../widgets/index.ts';
import { DRAG_MIME } from './Canvas.tsx';
import { useDesigner } from './store.ts';

type IconMap = Record<string, ComponentType>;
let iconsPromise: Promise<IconMap> | undefined;

/** The kinds' icons load once, lazily, as their own chunk (palette-icons.ts). */
function useIcons(): IconMap | null {
  const [icons, setIcons] = useState<IconMap | null>(null);
  useEffect(() => {
    iconsPromise ??= import('./palette-icons.ts').then((m) => m as unknown as IconMap);
    let live = true;
    void iconsPromise.then((m) => live && setIcons(m));
    return () => {
      live = false;
    };
  }, []);
  return icons;
}

export function Palette() {
  const { t, i18n } = useTranslation();
  const [q, setQ] = useState('');
  const icons = useIcons();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const groups = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return palette()
      .map((g) => ({
        ...g,
        items: g.items.filter(
          (w) =>
            !needle ||
            w.kind.includes(needle) ||
            w.meta.title.en.toLowerCase().includes(needle) ||
            w.meta.title.zh.includes(needle),
        ),
      }))
      .filter((g) => g.items.length);
  }, [q]);

  return (
    <div className="dz-palette" data-testid="palette">
      <Input.Search
        allowClear
        size="small"
        placeholder={t('designer.searchWidgets')}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        data-testid="palette-search"
      />
      {groups.length ? (
        <Collapse
          size="small"
          ghost
          defaultActiveKey={groups.map((g) => g.category)}
          activeKey={q ? groups.map((g) => g.category) : undefined}
          items={groups.map((g) => ({
            key: g.category,
            label: t(`designer.category.${g.category}`),
            children: (
              <div className="dz-tiles">
                {g.items.map((w) => {
                  const Icon = icons?.[w.meta.icon];
                  return (
                    // biome-ignore lint/a11y/noStaticElementInteractions: an HTML drag source
                    <div
                      key={w.kind}
                      className="dz-tile"
                      draggable
                      // Firefox needs some data to start a drag; the kind travels in the store.
                      onDragStart={(e) => {
                        e.dataTransfer.setData(DRAG_MIME, w.kind);
                        e.dataTransfer.setData('text/plain', '');
                        useDesigner.getState().setDraggingKind(w.kind);
                      }}
                      onDragEnd={() => useDesigner.getState().setDraggingKind(null)}
                      data-testid={`palette-${w.kind}`}
                      title={w.kind}
                    >
                      <span className="dz-tile-icon">{Icon ? <Icon /> : null}</span>
                      <span>{w.meta.title[lang]}</span>
                    </div>
                  );
                })}
              </div>
            ),
          }))}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('designer.noWidgets')} />
      )}
    </div>
  );
}
