/**
 * The step list of a program as a tree: condition and loop steps hold their branches' steps below
 * them. Steps are dragged by their handle (pointer, touch or keyboard: @dnd-kit) within a list, into
 * another branch or loop, or onto an empty branch; each row selects, duplicates and removes its step,
 * and every list ends with "Add step".
 */
import { CopyOutlined, DeleteOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button, Dropdown, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type FlowStep, STEP_TYPES, stepType } from '../../shared/program/index.ts';
import type { Lang } from '../designer/panel/schema-fields.ts';
import { type ListPath, moveStep, parseKey, pathKey, type StepPath } from './tree.ts';

const STEP = 's:';
const LIST = 'l:';

export interface StepTreeProps {
  process: FlowStep[];
  selected: string | null;
  lang: Lang;
  /** Steps with a fault (by path key), marked in the tree. */
  faults: Set<string>;
  onSelect: (path: StepPath) => void;
  onChange: (process: FlowStep[]) => void;
  onAdd: (at: ListPath, type: string) => void;
  onDuplicate: (path: StepPath) => void;
  onRemove: (path: StepPath) => void;
}

/** What the drop of `active` on `over` makes of the process (null: nothing). */
export function dropResult(process: FlowStep[], active: string, over: string): FlowStep[] | null {
  if (!active.startsWith(STEP) || active === over) return null;
  const from = parseKey(active.slice(STEP.length));
  if (over.startsWith(LIST)) {
    const to = parseKey(over.slice(LIST.length));
    let n = process.length;
    let list: FlowStep[] | undefined = process;
    for (let i = 0; i < to.length && list; i += 2)
      list = (list[to[i] as number]?._procedure[to[i + 1] as string] ?? []) as FlowStep[];
    n = list?.length ?? 0;
    return moveStep(process, from, to, n);
  }
  if (!over.startsWith(STEP)) return null;
  const target = parseKey(over.slice(STEP.length));
  const toList = target.slice(0, -1);
  const overIndex = target.at(-1) as number;
  const fromIndex = from.at(-1) as number;
  const sameList = pathKey(toList) === pathKey(from.slice(0, -1));
  return moveStep(process, from, toList, sameList && fromIndex < overIndex ? overIndex + 1 : overIndex);
}

export function StepTree(props: StepTreeProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = (e: DragEndEvent) => {
    if (!e.over) return;
    const next = dropResult(props.process, String(e.active.id), String(e.over.id));
    if (next) props.onChange(next);
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <div className="prog-tree" data-testid="step-tree">
        <StepList {...props} steps={props.process} at={[]} depth={0} />
      </div>
    </DndContext>
  );
}

function AddStep(props: { at: ListPath; onAdd: StepTreeProps['onAdd']; lang: Lang; nested: boolean }) {
  const { t } = useTranslation();
  const items = STEP_TYPES.filter((s) => !(props.nested && s.topLevel)).map((s) => ({
    key: s.type,
    label: <span data-step-type={s.type}>{props.lang === 'zh' ? s.title.zh : s.title.en}</span>,
  }));
  return (
    <Dropdown trigger={['click']} menu={{ items, onClick: ({ key }) => props.onAdd(props.at, key) }}>
      <Button
        size="small"
        type="dashed"
        icon={<PlusOutlined />}
        data-testid={`add-step-${pathKey(props.at) || 'top'}`}
      >
        {t('progEditor.addStep')}
      </Button>
    </Dropdown>
  );
}

function StepList(props: StepTreeProps & { steps: FlowStep[]; at: ListPath; depth: number }) {
  const { t } = useTranslation();
  const ids = props.steps.map((_, i) => `${STEP}${pathKey([...props.at, i])}`);
  const { setNodeRef, isOver } = useDroppable({ id: `${LIST}${pathKey(props.at)}` });
  return (
    <SortableContext items={ids} strategy={verticalListSortingStrategy}>
      <div
        ref={setNodeRef}
        className={`prog-list${isOver ? ' prog-list-over' : ''}`}
        data-list={pathKey(props.at) || 'top'}
      >
        {props.steps.length === 0 && props.depth > 0 ? (
          <Typography.Text type="secondary" className="prog-empty">
            {t('progEditor.emptyBranch')}
          </Typography.Text>
        ) : null}
        {props.steps.map((s, i) => (
          <StepRow key={ids[i]} {...props} step={s} path={[...props.at, i]} />
        ))}
        <AddStep at={props.at} onAdd={props.onAdd} lang={props.lang} nested={props.depth > 0} />
      </div>
    </SortableContext>
  );
}

function summary(step: FlowStep): string {
  const p = step._procedure;
  const first = (['if', 'over', 'message', 'id', 'value', 'url', 'source'] as const)
    .map((k) => p[k])
    .find((v) => typeof v === 'string' && v);
  return typeof first === 'string' ? first.slice(0, 60) : '';
}

function StepRow(props: StepTreeProps & { step: FlowStep; path: StepPath; depth: number }) {
  const { t } = useTranslation();
  const key = pathKey(props.path);
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: `${STEP}${key}`,
  });
  const def = stepType(props.step._type);
  const selected = props.selected === key;
  const schemaProps = (def?.schema.properties ?? {}) as Record<string, { title?: string; 'x-zh'?: string }>;
  return (
    <div
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition, opacity: isDragging ? 0.5 : 1 }}
      className="prog-step-wrap"
    >
      {/* biome-ignore lint/a11y/useSemanticElements: a row holding buttons cannot be a button */}
      <div
        className={`prog-step${selected ? ' prog-step-selected' : ''}${props.faults.has(key) ? ' prog-step-fault' : ''}`}
        data-testid={`step-${props.step._handle}`}
        role="button"
        tabIndex={0}
        aria-pressed={selected}
        aria-label={`${def ? (props.lang === 'zh' ? def.title.zh : def.title.en) : props.step._type} ${props.step._handle}`}
        onClick={() => props.onSelect(props.path)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && e.target === e.currentTarget) props.onSelect(props.path);
        }}
      >
        <button
          type="button"
          className="prog-drag"
          {...attributes}
          {...listeners}
          aria-label={t('progEditor.drag', { handle: props.step._handle })}
          data-testid={`drag-${props.step._handle}`}
        >
          <HolderOutlined />
        </button>
        <Tag color={def?.slots.length ? 'purple' : def?.entity ? 'blue' : 'default'}>
          {def ? (props.lang === 'zh' ? def.title.zh : def.title.en) : props.step._type}
        </Tag>
        <span className="prog-step-name">{props.step._name || props.step._handle}</span>
        <Typography.Text type="secondary" ellipsis className="prog-step-summary">
          {summary(props.step)}
        </Typography.Text>
        <span className="prog-step-actions">
          <Tooltip title={t('progEditor.duplicate')}>
            <Button
              size="small"
              type="text"
              icon={<CopyOutlined />}
              aria-label={`${t('progEditor.duplicate')} ${props.step._handle}`}
              onClick={(e) => {
                e.stopPropagation();
                props.onDuplicate(props.path);
              }}
            />
          </Tooltip>
          <Tooltip title={t('progEditor.removeStep')}>
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={`${t('progEditor.removeStep')} ${props.step._handle}`}
              onClick={(e) => {
                e.stopPropagation();
                props.onRemove(props.path);
              }}
            />
          </Tooltip>
        </span>
      </div>
      {def?.slots.map((slot) => (
        <div className="prog-slot" key={slot}>
          <div className="prog-slot-title">
            {props.lang === 'zh' ? (schemaProps[slot]?.['x-zh'] ?? slot) : (schemaProps[slot]?.title ?? slot)}
          </div>
          <StepList
            {...props}
            steps={(props.step._procedure[slot] ?? []) as FlowStep[]}
            at={[...props.path, slot]}
            depth={props.depth + 1}
          />
        </div>
      ))}
    </div>
  );
}
