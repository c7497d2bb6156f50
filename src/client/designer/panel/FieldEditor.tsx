/** One control per editor kind (schema-fields.ts decides which); list editors nest these per row. */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, ColorPicker, Image, Input, InputNumber, Segmented, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePanel } from './context.ts';
import { ImagePick, imageHtml } from './ImagePick.tsx';
import { DatasetPicker, EntityPicker, FieldPicker, PagePicker, ProgramsPicker } from './pickers.tsx';
import {
  type EditorKind,
  editorOf,
  emptyRow,
  enumOptions,
  type Json,
  labelOf,
  numberBounds,
  rowFields,
} from './schema-fields.ts';

export interface EditorProps {
  schema: Json;
  editor: EditorKind;
  value: unknown;
  onChange: (v: unknown) => void;
  /** Errors under this value, keyed by the path below it ('' = the value itself, '2.value' = a row field). */
  errors?: Record<string, string>;
  /** The values around this one, to resolve `x-field-of` (row first, then the widget's props). */
  scope?: Json[];
  testId?: string;
  disabled?: boolean;
}

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** Errors under a sub-path, re-keyed relative to it. */
export function subErrors(
  errors: Record<string, string> | undefined,
  prefix: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, m] of Object.entries(errors ?? {})) {
    if (k === prefix) out[''] = m;
    else if (k.startsWith(`${prefix}.`)) out[k.slice(prefix.length + 1)] = m;
  }
  return out;
}

function fieldOf(schema: Json, scope: Json[] | undefined): string | undefined {
  const key = schema['x-field-of'];
  if (typeof key !== 'string') return undefined;
  for (const s of scope ?? []) if (typeof s[key] === 'string' && s[key]) return s[key] as string;
  return undefined;
}

function ErrorText(props: { message?: string }) {
  return props.message ? (
    <div className="panel-error" role="alert">
      {props.message}
    </div>
  ) : null;
}

/** Rows have no identity of their own: they are keyed by position. */
const rowKey = (i: number) => `row-${i}`;

/** Moves item i of a list by d places. */
function move<T>(list: T[], i: number, d: number): T[] {
  const j = i + d;
  if (j < 0 || j >= list.length) return list;
  const next = list.slice();
  [next[i], next[j]] = [next[j] as T, next[i] as T];
  return next;
}

function RowButtons(props: { i: number; n: number; onMove: (d: number) => void; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <Space.Compact size="small">
      <Button
        icon={<ArrowUpOutlined />}
        disabled={props.i === 0}
        onClick={() => props.onMove(-1)}
        aria-label={t('panel.moveUp')}
      />
      <Button
        icon={<ArrowDownOutlined />}
        disabled={props.i === props.n - 1}
        onClick={() => props.onMove(1)}
        aria-label={t('panel.moveDown')}
      />
      <Button danger icon={<DeleteOutlined />} onClick={props.onRemove} aria-label={t('panel.removeRow')} />
    </Space.Compact>
  );
}

/** Add / remove / reorder rows; each row is a nested generated form (objects) or one control (scalars). */
function ListEditor(props: EditorProps) {
  const { t } = useTranslation();
  const { lang, project } = usePanel();
  const list = Array.isArray(props.value) ? (props.value as unknown[]) : [];
  const items = (props.schema.items ?? {}) as Json;
  const objectRows = items.type === 'object';
  const fields = objectRows ? rowFields(props.schema) : [];
  const itemEditor = objectRows ? 'list' : editorOf(items);
  const max = typeof props.schema.maxItems === 'number' ? props.schema.maxItems : Number.POSITIVE_INFINITY;
  const set = (next: unknown[]) => props.onChange(next);
  return (
    <div className="panel-list" data-testid={props.testId}>
      {list.map((row, i) => (
        <div
          className="panel-list-row"
          key={rowKey(i)}
          data-testid={props.testId ? `${props.testId}-row-${i}` : undefined}
        >
          <div className="panel-list-head">
            <span className="panel-muted">#{i + 1}</span>
            <RowButtons
              i={i}
              n={list.length}
              onMove={(d) => set(move(list, i, d))}
              onRemove={() => set(list.filter((_, j) => j !== i))}
            />
          </div>
          {objectRows ? (
            fields.map((f) => {
              const rowObj = (row ?? {}) as Json;
              const err = subErrors(props.errors, `${i}.${f.key}`);
              return (
                <div className="panel-row-field" key={f.key}>
                  <span className="panel-row-label">
                    {labelOf(f.schema, f.key, lang)}
                    {f.required ? <span className="panel-req">*</span> : null}
                  </span>
                  <FieldEditor
                    schema={f.schema}
                    editor={f.editor}
                    value={rowObj[f.key]}
                    scope={[rowObj, ...(props.scope ?? [])]}
                    errors={err}
                    testId={props.testId ? `${props.testId}-${i}-${f.key}` : undefined}
                    onChange={(v) => {
                      const nextRow = { ...rowObj };
                      if (v === undefined || (v === '' && !f.required)) delete nextRow[f.key];
                      else nextRow[f.key] = v;
                      set(list.map((r, j) => (j === i ? nextRow : r)));
                    }}
                  />
                </div>
              );
            })
          ) : (
            <FieldEditor
              schema={items}
              editor={itemEditor}
              value={row}
              errors={subErrors(props.errors, String(i))}
              testId={props.testId ? `${props.testId}-${i}` : undefined}
              onChange={(v) => set(list.map((r, j) => (j === i ? v : r)))}
            />
          )}
          {objectRows ? <ErrorText message={props.errors?.[String(i)]} /> : null}
        </div>
      ))}
      <Space size={4} wrap>
        <Button
          size="small"
          icon={<PlusOutlined />}
          disabled={list.length >= max}
          onClick={() => set([...list, emptyRow(props.schema)])}
          data-testid={props.testId ? `${props.testId}-add` : undefined}
        >
          {t('panel.addRow')}
        </Button>
        {props.editor === 'images' ? (
          <ImagePick
            project={project}
            label={t('upload.uploadImage')}
            disabled={list.length >= max}
            onPick={(url) => set([...list, url])}
            {...(props.testId ? { testId: `${props.testId}-upload` } : {})}
          />
        ) : null}
      </Space>
      <ErrorText message={props.errors?.['']} />
    </div>
  );
}

function ColorEditor(props: EditorProps) {
  const value = str(props.value);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <ColorPicker
        value={value && value !== 'transparent' ? value : undefined}
        allowClear
        onChangeComplete={(c) => props.onChange(c.toHexString())}
        onClear={() => props.onChange('transparent')}
      />
      <Input
        value={value}
        onChange={(e) => props.onChange(e.target.value)}
        status={props.errors?.[''] ? 'error' : undefined}
        data-testid={props.testId}
        style={{ fontFamily: 'monospace' }}
      />
    </Space.Compact>
  );
}

function ImageEditor(props: EditorProps) {
  const { t } = useTranslation();
  const { project } = usePanel();
  const value = str(props.value);
  return (
    <div className="panel-image">
      <Input
        value={value}
        placeholder={t('panel.imageUrl')}
        onChange={(e) => props.onChange(e.target.value)}
        status={props.errors?.[''] ? 'error' : undefined}
        data-testid={props.testId}
      />
      <ImagePick
        project={project}
        label={t('upload.uploadImage')}
        onPick={(url) => props.onChange(url)}
        {...(props.testId ? { testId: `${props.testId}-upload` } : {})}
      />
      {value && !props.errors?.[''] ? (
        <Image src={value} alt="" height={64} className="panel-image-preview" fallback="" />
      ) : null}
    </div>
  );
}

/** Numbers typed as tags: each tag becomes a number (or stays text so the check names it). */
function NumbersEditor(props: EditorProps) {
  const list = Array.isArray(props.value) ? (props.value as unknown[]) : [];
  return (
    <Select
      mode="tags"
      value={list.map(String)}
      onChange={(v: string[]) =>
        props.onChange(v.map((s) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s)))
      }
      tokenSeparators={[',', ' ']}
      open={false}
      status={Object.keys(props.errors ?? {}).length ? 'error' : undefined}
      data-testid={props.testId}
      style={{ width: '100%' }}
    />
  );
}

function TupleEditor(props: EditorProps) {
  const n = Number(props.schema.minItems ?? 0);
  const list = Array.isArray(props.value) ? (props.value as unknown[]) : [];
  const items = (props.schema.items ?? {}) as Json;
  return (
    <Space.Compact data-testid={props.testId}>
      {Array.from({ length: n }, (_, i) => (
        <InputNumber
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed positions
          key={i}
          value={typeof list[i] === 'number' ? (list[i] as number) : null}
          {...numberBounds(items)}
          min={undefined}
          max={undefined}
          status={props.errors?.[String(i)] ? 'error' : undefined}
          onChange={(v) => {
            const next = Array.from({ length: n }, (_, j) => list[j] ?? 0);
            next[i] = v ?? 0;
            props.onChange(next);
          }}
          style={{ width: 64 }}
        />
      ))}
    </Space.Compact>
  );
}

/** The control of one value. Errors of scalar values show right below; lists show theirs per row. */
export function FieldEditor(props: EditorProps) {
  const { t } = useTranslation();
  const { lang, project } = usePanel();
  const own = props.errors?.[''];
  const status = own ? ('error' as const) : undefined;
  const { schema } = props;
  let control: React.ReactNode;
  switch (props.editor) {
    case 'text':
      control = (
        <Input
          value={str(props.value)}
          onChange={(e) => props.onChange(e.target.value)}
          status={status}
          data-testid={props.testId}
          disabled={props.disabled}
        />
      );
      break;
    case 'url':
      control = (
        <Input
          value={str(props.value)}
          placeholder="https://"
          onChange={(e) => props.onChange(e.target.value)}
          status={status}
          data-testid={props.testId}
        />
      );
      break;
    case 'textarea':
    case 'html': {
      const area = (
        <Input.TextArea
          value={str(props.value)}
          autoSize={{ minRows: 2, maxRows: 10 }}
          onChange={(e) => props.onChange(e.target.value)}
          status={status}
          data-testid={props.testId}
          style={props.editor === 'html' ? { fontFamily: 'monospace' } : undefined}
        />
      );
      control =
        props.editor === 'html' ? (
          <div className="panel-richtext">
            {area}
            <ImagePick
              project={project}
              onPick={(url, alt) => props.onChange(`${str(props.value)}${imageHtml(url, alt)}`)}
              {...(props.testId ? { testId: `${props.testId}-image` } : {})}
            />
          </div>
        ) : (
          area
        );
      break;
    }
    case 'number': {
      const b = numberBounds(schema);
      const range =
        b.min !== undefined || b.max !== undefined ? `${b.min ?? '−∞'} – ${b.max ?? '∞'}` : undefined;
      control = (
        <InputNumber
          // Bounds are checked (and shown) rather than clamped, so a wrong number is named, not changed.
          value={typeof props.value === 'number' ? props.value : null}
          step={b.step}
          onChange={(v) => props.onChange(v === null ? undefined : v)}
          status={status}
          placeholder={range}
          data-testid={props.testId}
          style={{ width: '100%' }}
          aria-valuemin={b.min}
          aria-valuemax={b.max}
        />
      );
      break;
    }
    case 'switch':
      control = (
        <Switch
          checked={props.value === true}
          onChange={(v) => props.onChange(v)}
          data-testid={props.testId}
          size="small"
        />
      );
      break;
    case 'select':
      control = (
        <Select
          value={props.value as string | number | undefined}
          options={enumOptions(schema, lang)}
          onChange={(v) => props.onChange(v)}
          status={status}
          data-testid={props.testId}
          style={{ width: '100%' }}
          allowClear={!('default' in schema)}
        />
      );
      break;
    case 'color':
      control = <ColorEditor {...props} />;
      break;
    case 'image':
      control = <ImageEditor {...props} />;
      break;
    case 'entity':
      control = (
        <EntityPicker
          value={str(props.value)}
          onChange={props.onChange}
          status={status}
          testId={props.testId}
        />
      );
      break;
    case 'dataset':
      control = (
        <DatasetPicker
          value={str(props.value)}
          onChange={props.onChange}
          status={status}
          testId={props.testId}
        />
      );
      break;
    case 'field':
      control = (
        <FieldPicker
          entity={fieldOf(schema, props.scope)}
          value={str(props.value)}
          onChange={props.onChange}
          status={status}
          testId={props.testId}
        />
      );
      break;
    case 'page':
      control = (
        <PagePicker
          value={str(props.value)}
          onChange={props.onChange}
          status={status}
          testId={props.testId}
        />
      );
      break;
    case 'programs':
      control = (
        <ProgramsPicker
          value={
            Array.isArray(props.value) ? props.value.filter((x): x is string => typeof x === 'string') : []
          }
          onChange={props.onChange}
          status={status}
          testId={props.testId}
        />
      );
      break;
    case 'tags': {
      const items = (schema.items ?? {}) as Json;
      control = (
        <Select
          mode="tags"
          value={Array.isArray(props.value) ? (props.value as string[]) : []}
          options={Array.isArray(items.enum) ? enumOptions(items, lang) : undefined}
          onChange={(v: string[]) => props.onChange(v)}
          tokenSeparators={[',']}
          status={Object.keys(props.errors ?? {}).length ? 'error' : undefined}
          data-testid={props.testId}
          style={{ width: '100%' }}
        />
      );
      break;
    }
    case 'numbers':
      control = <NumbersEditor {...props} />;
      break;
    case 'tuple':
      control = <TupleEditor {...props} />;
      break;
    case 'images':
    case 'list':
      return <ListEditor {...props} />;
    case 'textOrTags': {
      const isList = Array.isArray(props.value);
      control = (
        <Space.Compact style={{ width: '100%' }}>
          <Segmented
            size="small"
            value={isList ? 'list' : 'text'}
            options={[
              { value: 'text', label: t('panel.single') },
              { value: 'list', label: t('panel.range') },
            ]}
            onChange={(m) => props.onChange(m === 'list' ? (isList ? props.value : []) : '')}
          />
          {isList ? (
            <Select
              mode="tags"
              value={props.value as string[]}
              onChange={(v: string[]) => props.onChange(v)}
              open={false}
              status={status}
              data-testid={props.testId}
              style={{ flex: 1 }}
            />
          ) : (
            <Input
              value={str(props.value)}
              onChange={(e) => props.onChange(e.target.value)}
              status={status}
              data-testid={props.testId}
            />
          )}
        </Space.Compact>
      );
      break;
    }
    default:
      control = <span className="panel-error">{t('panel.unknownEditor')}</span>;
  }
  const nested = Object.entries(props.errors ?? {}).filter(([k]) => k !== '');
  return (
    <>
      {control}
      <ErrorText message={own} />
      {nested.map(([k, m]) => (
        <ErrorText key={k} message={`#${Number(k.split('.')[0]) + 1}: ${m}`} />
      ))}
    </>
  );
}
