/**
 * The outline: the page's widgets as a tree (virtual list), to select, rename (double-click), hide,
 * lock, and drag to reorder or move into another container.
 */
import { EyeInvisibleOutlined, EyeOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { Input, Tree, type TreeDataNode, type TreeProps } from 'antd';
import { useCallback, useDeferredValue, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getWidget } from '../../../widgets/index.ts';
import { PeerDots } from './collab/PeerMarks.tsx';
import type { DocModel } from './model.ts';
import { scrollToWidget } from './scroll-to.ts';
import { useDesigner } from './store.ts';

function useRevision(model: DocModel): number {
  return useSyncExternalStore(
    useCallback((l) => model.subscribeAny(l), [model]),
    () => model.revision,
  );
}

export function Layers() {
  const { t, i18n } = useTranslation();
  const model = useDesigner((s) => s.model)!;
  // The outline follows the selection one step behind the canvas (a deferred render): a click on the
  // canvas paints its selection first, and the tree (antd, 1,000 rows of data) catches up after.
  const selection = useDeferredValue(useDesigner((s) => s.selection));
  const rev = useRevision(model);
  const [editing, setEditing] = useState<string | null>(null);
  const lang = i18n.language === 'zh' ? 'zh' : 'en';

  // biome-ignore lint/correctness/useExhaustiveDependencies: rev is the model's change counter
  const data = useMemo(() => {
    const build = (parent: string | null): TreeDataNode[] =>
      model.children(parent).map((id) => {
        const v = model.get(id)!;
        const title = v.name || getWidget(v.kind)?.meta.title[lang] || v.kind;
        return {
          key: id,
          title,
          isLeaf: !v.container,
          children: v.container ? build(id) : undefined,
        };
      });
    return build(null);
  }, [model, rev, lang]);

  // The tree renders again only when what it shows changes (not at the urgent render of a selection).
  const tree = useMemo(() => {
    const onDrop: TreeProps['onDrop'] = (info) => {
      const dragId = String(info.dragNode.key);
      const dropId = String(info.node.key);
      const target = model.get(dropId);
      if (!target) return;
      const st = useDesigner.getState();
      if (!info.dropToGap && target.container) {
        st.move(dragId, dropId, 0);
        return;
      }
      const parent = target.parent !== null && model.has(target.parent) ? target.parent : null;
      const sibs = model.children(parent).filter((s) => s !== dragId);
      const at = sibs.indexOf(dropId);
      st.move(dragId, parent, info.dropPosition < 0 ? at : at + 1);
    };

    const titleRender = (node: TreeDataNode) => {
      const id = String(node.key);
      const v = model.get(id);
      if (!v) return null;
      const st = useDesigner.getState();
      if (editing === id)
        return (
          <Input
            size="small"
            autoFocus
            defaultValue={v.name ?? ''}
            aria-label={t('designer.name')}
            data-testid="layer-rename"
            onClick={(e) => e.stopPropagation()}
            onKeyDown={(e) => e.stopPropagation()}
            onBlur={(e) => {
              st.applyWidgetPatch(id, { name: e.target.value.trim() || undefined });
              st.breakStep();
              setEditing(null);
            }}
            onPressEnter={(e) => (e.target as HTMLInputElement).blur()}
          />
        );
      return (
        <span className="dz-layer" data-testid={`layer-${id}`}>
          {/* biome-ignore lint/a11y/noStaticElementInteractions: double-click renames; the inspector's name field does the same by keyboard */}
          <span className="dz-layer-title" onDoubleClick={() => setEditing(id)}>
            {node.title as string}
          </span>
          <PeerDots id={id} />
          <span className="dz-layer-tools">
            <button
              type="button"
              className="dz-icon-btn"
              aria-label={v.hidden ? t('designer.show') : t('designer.hide')}
              onClick={(e) => {
                e.stopPropagation();
                st.setField(id, 'hidden', v.hidden ? undefined : true);
              }}
            >
              {v.hidden ? <EyeInvisibleOutlined /> : <EyeOutlined />}
            </button>
            <button
              type="button"
              className="dz-icon-btn"
              aria-label={v.locked ? t('designer.unlock') : t('designer.lock')}
              onClick={(e) => {
                e.stopPropagation();
                st.setField(id, 'locked', v.locked ? undefined : true);
              }}
            >
              {v.locked ? <LockOutlined /> : <UnlockOutlined />}
            </button>
          </span>
        </span>
      );
    };

    return (
      <Tree
        blockNode
        draggable={{ icon: false }}
        defaultExpandAll
        height={420}
        multiple
        treeData={data}
        selectedKeys={[...selection]}
        onSelect={(_keys, info) => {
          const e = info.nativeEvent as MouseEvent;
          const id = String(info.node.key);
          useDesigner.getState().select([id], e.shiftKey || e.ctrlKey || e.metaKey ? 'toggle' : 'replace');
          // The canvas shows what was picked here (it may sit far down the page, not drawn yet, inside
          // a container).
          scrollToWidget(model, id);
        }}
        onDrop={onDrop}
        titleRender={titleRender}
      />
    );
  }, [model, data, selection, editing, t]);

  return (
    <div className="dz-layers" data-testid="layers">
      {tree}
    </div>
  );
}
