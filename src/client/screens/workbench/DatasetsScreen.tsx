/**
 * /dev/datasets: the project's datasets (queries across tables). Create, rename, remove; edit the
 * base table, joins along relation fields, computed columns, filters (the grid's filter builder over
 * the dataset's columns), group-by with aggregates, sort and the displayed columns (titles, order);
 * save, release, versions and restore. The first rows show live while editing (the admin preview
 * call, debounced), so the builder sees what the query answers before saving it.
 */
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  HistoryOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import {
  Alert,
  App,
  AutoComplete,
  Button,
  Card,
  Checkbox,
  Drawer,
  Empty,
  Input,
  List,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AGG_FNS,
  type AggFn,
  type ColumnInput,
  type DatasetInput,
  type DisplayColumn,
  EXPR_FNS,
  type ExprFn,
  type ExprInput,
} from '../../../shared/dataset/types.ts';
import { ApiError } from '../../api/api-error.ts';
import {
  type DatasetFlow,
  type DatasetVersion,
  datasetsApi,
  type PreviewAnswer,
} from '../../api/datasets.ts';
import { type Entity, type Field, wb } from '../../api/workbench.ts';
import { FilterBuilder } from './FilterBuilder.tsx';
import { type Condition, DATE_PRESETS, type Match, toQuery } from './filter-query.ts';
import { useProject } from './workbench-context.ts';

/** The base table's alias (src/shared/dataset/validate.ts). */
const BASE = 't';
/** The live preview waits this long after the last edit. */
const PREVIEW_DEBOUNCE_MS = 400;

const EMPTY_DOC: DatasetInput = { base: '', joins: [], columns: [] };

/** The field type a column of this query type is filtered as (FilterBuilder reads field types). */
const FIELD_TYPE_OF_QUERY: Record<string, Field['_type']> = {
  text: 'string',
  number: 'number',
  date: 'date',
  time: 'time',
  boolean: 'boolean',
  option: 'option',
  options: 'options',
  relate: 'relate',
};

/** The where the filter builder wrote, read back as its conditions. */
/** The draft's lists of rows, each edited row by row in the editor. */
type ListKey = 'columns' | 'joins' | 'aggregates' | 'sort';
type ListOf<K extends ListKey> = NonNullable<DatasetInput[K]>;

export function whereConditions(where: unknown): { conditions: Condition[]; match: Match } {
  const w = where as { $and?: unknown; $or?: unknown } | null | undefined;
  const list = Array.isArray(w?.$and) ? w.$and : Array.isArray(w?.$or) ? w.$or : [];
  const presets = new Set<string>(DATE_PRESETS);
  const conditions = (list as { field?: unknown; opt?: unknown; value?: unknown }[])
    .filter((c) => c && typeof c.field === 'string' && typeof c.opt === 'string')
    .map((c, i) =>
      presets.has(c.opt as string)
        ? { id: i + 1, field: c.field as string, opt: 'preset', value: c.opt }
        : { id: i + 1, field: c.field as string, opt: c.opt as string, value: c.value },
    );
  return { conditions, match: Array.isArray(w?.$or) ? 'or' : 'and' };
}

/** The text a function argument shows: a column reference, or a literal. */
const argText = (a: ExprInput): string =>
  'ref' in a ? a.ref : 'value' in a ? String(a.value) : `${a.fn}(…)`;

/** A typed argument: a known reference, a number, or text. */
function parseArg(text: string, refs: Set<string>): ExprInput {
  if (refs.has(text)) return { ref: text };
  if (/^-?\d+(\.\d+)?$/.test(text.trim())) return { value: Number(text) };
  return { value: text };
}

/** The keys of the rows a dataset answers: group keys then aggregates, or every column. */
function outputKeys(d: DatasetInput): string[] {
  const grouped = (d.group?.length ?? 0) > 0 || (d.aggregates?.length ?? 0) > 0;
  return grouped
    ? [...(d.group ?? []), ...(d.aggregates ?? []).map((a) => a.key)]
    : d.columns.map((c) => c.key);
}

function freeKey(used: Iterable<string>, stem: string): string {
  const taken = new Set(used);
  for (let i = 1; ; i++) if (!taken.has(`${stem}${i}`)) return `${stem}${i}`;
}

export default function DatasetsScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const p = useProject()._id;
  const [sets, setSets] = useState<DatasetFlow[]>([]);
  const [tables, setTables] = useState<Entity[]>([]);
  const [fields, setFields] = useState<Record<string, Field[]>>({});
  const [current, setCurrent] = useState<DatasetFlow | null>(null);
  const [name, setName] = useState('');
  const [doc, setDoc] = useState<DatasetInput>(EMPTY_DOC);
  const [display, setDisplay] = useState<DisplayColumn[]>([]);
  const [newName, setNewName] = useState('');
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<PreviewAnswer | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [versions, setVersions] = useState<DatasetVersion[] | null>(null);
  const [filterKey, setFilterKey] = useState(0);

  const fail = useCallback(
    (err: unknown) => {
      void message.error(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    },
    [message],
  );
  const reload = useCallback(async () => {
    const [d, e] = await Promise.all([datasetsApi.list(p), wb.entities(p)]);
    setSets(d);
    setTables(e);
    return d;
  }, [p]);
  useEffect(() => {
    void reload().catch(fail);
  }, [reload, fail]);

  // Aliases and the table each names: the base, then the joins in order.
  const aliases = useMemo(() => {
    const map = new Map<string, string>();
    if (doc.base) map.set(BASE, doc.base);
    const joins = doc.joins ?? [];
    for (let pass = 0; pass < joins.length; pass++) {
      for (const j of joins) {
        const fromEntity = map.get(j.from ?? BASE);
        if (!fromEntity || map.has(j.as)) continue;
        const f = fields[fromEntity]?.find((x) => x._field === j.field);
        const target = f?._relate[0];
        if (target) map.set(j.as, target);
      }
    }
    return map;
  }, [doc.base, doc.joins, fields]);

  // Fields of every table the dataset reaches, loaded once each.
  useEffect(() => {
    const want = [...new Set(aliases.values())].filter((e) => !fields[e]);
    if (!want.length) return;
    void Promise.all(want.map((e) => wb.fields(p, e).then((list) => [e, list] as const)))
      .then((pairs) => setFields((old) => ({ ...old, ...Object.fromEntries(pairs) })))
      .catch(fail);
  }, [aliases, fields, p, fail]);

  const tableName = useCallback(
    (id: string) => tables.find((x) => x._id === id || x._code === id)?._name ?? id,
    [tables],
  );
  const refOptions = useMemo(() => {
    const out: { value: string; label: string; field?: Field }[] = [];
    for (const [alias, entity] of aliases) {
      const tn = tableName(entity);
      out.push({ value: `${alias}._id`, label: `${alias} · ${tn} · ID` });
      out.push({ value: `${alias}._created_at`, label: `${alias} · ${tn} · ${t('ds.createdAt')}` });
      for (const f of fields[entity] ?? []) {
        if (f._type === 'collection') continue;
        out.push({ value: `${alias}.${f._field}`, label: `${alias} · ${tn} · ${f._name}`, field: f });
      }
    }
    return out;
  }, [aliases, fields, tableName, t]);
  const refSet = useMemo(() => new Set(refOptions.map((o) => o.value)), [refOptions]);

  // Columns as fields for the filter builder: a field column keeps its field's type and options.
  const columnFields = useMemo<Field[]>(
    () =>
      doc.columns.map((c, i) => {
        const base =
          'ref' in c.expr ? refOptions.find((o) => o.value === (c.expr as { ref: string }).ref) : null;
        const fnOut = 'fn' in c.expr ? EXPR_FNS[c.expr.fn]?.out : null;
        const type: Field['_type'] = base?.field
          ? base.field._type
          : fnOut === 'number'
            ? 'number'
            : 'ref' in c.expr && /\._created_at$/.test(c.expr.ref)
              ? 'date'
              : (FIELD_TYPE_OF_QUERY[fnOut ?? 'text'] ?? 'string');
        return {
          _id: `c${i}`,
          _entity: '',
          _name: c.key,
          _field: c.key,
          _key: c.key,
          _code: c.key,
          _type: type,
          _relate: base?.field?._relate ?? [],
          _option: base?.field?._option ?? {},
          _hide: false,
          _sort: i,
          _status: 'normal',
        };
      }),
    [doc.columns, refOptions],
  );
  const filter = useMemo(() => whereConditions(doc.where), [doc.where]);

  const open = (d: DatasetFlow) => {
    setCurrent(d);
    setName(d._name);
    setDoc(structuredClone(d._dataset));
    setDisplay(structuredClone(d._release._display._entity));
    setPreview(null);
    setPreviewError(null);
    setVersions(null);
    setFilterKey((k) => k + 1);
  };

  // The live preview: the edited document, debounced; a newer edit's answer wins.
  const seq = useRef(0);
  const currentId = current?._id;
  useEffect(() => {
    if (!currentId || !doc.base || doc.columns.length === 0) {
      setPreview(null);
      setPreviewError(null);
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      setPreviewing(true);
      datasetsApi
        .preview(p, currentId, { _dataset: doc, _release: { _display: { _entity: display } } })
        .then((a) => {
          if (mine !== seq.current) return;
          setPreview(a);
          setPreviewError(null);
        })
        .catch((err: unknown) => {
          if (mine !== seq.current) return;
          setPreviewError(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
        })
        .finally(() => {
          if (mine === seq.current) setPreviewing(false);
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [p, currentId, doc, display]);

  const create = async () => {
    if (!newName.trim()) return;
    try {
      const d = await datasetsApi.create(p, newName.trim());
      setNewName('');
      await reload();
      open(d);
    } catch (err) {
      fail(err);
    }
  };
  const remove = async (d: DatasetFlow) => {
    try {
      await datasetsApi.remove(p, d._id);
      if (current?._id === d._id) setCurrent(null);
      await reload();
    } catch (err) {
      fail(err);
    }
  };
  const save = async (): Promise<DatasetFlow | null> => {
    if (!current) return null;
    setBusy(true);
    try {
      const keys = new Set(outputKeys(doc));
      const saved = await datasetsApi.save(p, current._id, {
        name: name.trim() || current._name,
        _dataset: doc,
        _release: { _display: { _entity: display.filter((d) => keys.has(d.key)) } },
      });
      setCurrent(saved);
      setDisplay(saved._release._display._entity);
      await reload();
      void message.success(t('ds.saved'));
      return saved;
    } catch (err) {
      fail(err);
      return null;
    } finally {
      setBusy(false);
    }
  };
  const release = async () => {
    const saved = await save();
    if (!saved) return;
    setBusy(true);
    try {
      const r = await datasetsApi.release(p, saved._id);
      setCurrent(r);
      await reload();
      void message.success(t('ds.released', { version: r._version }));
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const showVersions = async () => {
    if (!current) return;
    try {
      setVersions(await datasetsApi.versions(p, current._id));
    } catch (err) {
      fail(err);
    }
  };
  const restore = async (v: number) => {
    if (!current) return;
    try {
      const r = await datasetsApi.restore(p, current._id, v);
      await reload();
      open(r);
      void message.success(t('ds.restored', { version: v }));
    } catch (err) {
      fail(err);
    }
  };

  const patch = (next: Partial<DatasetInput>) => setDoc((d) => ({ ...d, ...next }));
  // Row edits start from the draft's latest lists, not this render's: two edits made before the
  // screen draws again (a function, then its field) must not undo each other.
  const editList = <K extends ListKey>(key: K, f: (list: ListOf<K>) => ListOf<K>) =>
    setDoc((d) => ({ ...d, [key]: f((d[key] ?? []) as ListOf<K>) }));
  const editRow = <K extends ListKey>(key: K, i: number, f: (row: ListOf<K>[number]) => ListOf<K>[number]) =>
    editList(key, (list) => list.map((x, k) => (k === i ? f(x) : x)) as ListOf<K>);
  const removeRow = <K extends ListKey>(key: K, i: number) =>
    editList(key, (list) => list.filter((_, k) => k !== i) as ListOf<K>);
  const joins = doc.joins ?? [];
  const aggregates = doc.aggregates ?? [];
  const sort = doc.sort ?? [];
  const outKeys = outputKeys(doc);
  const columnKeys = doc.columns.map((c) => c.key);
  const aliasOptions = [...aliases.keys()].map((a) => ({
    value: a,
    label: `${a} · ${tableName(aliases.get(a)!)}`,
  }));

  const setColumn = (i: number, c: ColumnInput) => editRow('columns', i, () => c);
  const renameColumn = (i: number, key: string) => {
    const old = doc.columns[i]!.key;
    const swap = (k: string) => (k === old ? key : k);
    setDoc((d) => ({
      ...d,
      columns: d.columns.map((x, j) => (j === i ? { ...x, key } : x)),
      group: d.group?.map(swap),
      aggregates: d.aggregates?.map((a) => (a.of === old ? { ...a, of: key } : a)),
      sort: d.sort?.map((s) => ({ ...s, key: swap(s.key) })),
    }));
    setDisplay((list) => list.map((x) => (x.key === old ? { ...x, key } : x)));
  };

  // Display: the chosen columns in their order, then the others (not shown).
  const displayRows = [
    ...display.filter((d) => outKeys.includes(d.key)).map((d) => ({ ...d, shown: true })),
    ...outKeys
      .filter((k) => !display.some((d) => d.key === k))
      .map((k) => ({ key: k, title: '', shown: false })),
  ];
  const moveDisplay = (key: string, by: number) =>
    setDisplay((list) => {
      const i = list.findIndex((d) => d.key === key);
      const j = i + by;
      if (i < 0 || j < 0 || j >= list.length) return list;
      const next = [...list];
      [next[i], next[j]] = [next[j]!, next[i]!];
      return next;
    });

  const dirty =
    current !== null &&
    (JSON.stringify(doc) !== JSON.stringify(current._dataset) ||
      JSON.stringify(display) !== JSON.stringify(current._release._display._entity) ||
      name !== current._name);

  const list = (
    <Card
      size="small"
      title={t('ds.datasets')}
      className="ds-list"
      style={{ flex: '1 1 240px', maxWidth: 360 }}
    >
      <Space.Compact block>
        <Input
          placeholder={t('ds.newName')}
          value={newName}
          maxLength={128}
          onChange={(e) => setNewName(e.target.value)}
          onPressEnter={() => void create()}
          data-testid="ds-new-name"
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void create()} data-testid="ds-create">
          {t('ds.create')}
        </Button>
      </Space.Compact>
      <List
        dataSource={sets}
        locale={{ emptyText: <Empty description={t('ds.empty')} /> }}
        renderItem={(d) => (
          <List.Item
            className={current?._id === d._id ? 'ds-item ds-item-active' : 'ds-item'}
            data-testid="ds-item"
            actions={[
              <Popconfirm
                key="remove"
                title={t('ds.removeConfirm', { name: d._name })}
                onConfirm={() => void remove(d)}
                okText={t('common.remove')}
              >
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('common.remove')}
                />
              </Popconfirm>,
            ]}
          >
            <Button type="link" onClick={() => open(d)} style={{ padding: 0 }}>
              {d._name}
            </Button>
            {d._version ? <Tag color="green">v{d._version}</Tag> : <Tag>{t('ds.draft')}</Tag>}
          </List.Item>
        )}
      />
    </Card>
  );

  if (!current)
    return (
      <div className="ds-screen" style={{ display: 'flex', flexWrap: 'wrap', gap: 12, padding: 12 }}>
        {list}
        <Card size="small" style={{ flex: '3 1 480px' }}>
          <Empty description={t('ds.pick')} />
        </Card>
      </div>
    );

  const section = (title: string, body: React.ReactNode, extra?: React.ReactNode) => (
    <Card size="small" title={title} extra={extra} className="ds-section">
      {body}
    </Card>
  );

  return (
    <div className="ds-screen" style={{ display: 'flex', flexWrap: 'wrap', gap: 12, padding: 12 }}>
      {list}
      <div style={{ flex: '3 1 480px', minWidth: 0, display: 'flex', flexDirection: 'column', gap: 12 }}>
        <Card size="small">
          <Space wrap>
            <Input
              aria-label={t('ds.name')}
              value={name}
              maxLength={128}
              onChange={(e) => setName(e.target.value)}
              style={{ width: 220 }}
              data-testid="ds-name"
            />
            <Button
              type="primary"
              loading={busy}
              disabled={!dirty}
              onClick={() => void save()}
              data-testid="ds-save"
            >
              {t('common.save')}
            </Button>
            <Button loading={busy} onClick={() => void release()} data-testid="ds-release">
              {t('ds.release')}
            </Button>
            <Button icon={<HistoryOutlined />} onClick={() => void showVersions()} data-testid="ds-versions">
              {t('ds.versions')}
            </Button>
            {current._version ? (
              <Tag color="green" data-testid="ds-released">
                {t('ds.releasedTag', { version: current._version })}
              </Tag>
            ) : (
              <Tag>{t('ds.notReleased')}</Tag>
            )}
            {dirty ? <Tag color="orange">{t('ds.unsaved')}</Tag> : null}
          </Space>
        </Card>

        {section(
          t('ds.source'),
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space wrap>
              <Typography.Text>{t('ds.base')}</Typography.Text>
              <Select
                aria-label={t('ds.base')}
                style={{ minWidth: 200 }}
                value={doc.base || undefined}
                placeholder={t('ds.pickTable')}
                showSearch
                optionFilterProp="label"
                data-testid="ds-base"
                options={tables.map((x) => ({ value: x._id, label: x._name }))}
                onChange={(base: string) => {
                  setDoc({ ...EMPTY_DOC, base });
                  setDisplay([]);
                  setFilterKey((k) => k + 1);
                }}
              />
            </Space>
            {joins.map((j, i) => {
              const fromEntity = aliases.get(j.from ?? BASE);
              const relFields = (fromEntity ? (fields[fromEntity] ?? []) : []).filter(
                (f) => (f._type === 'relate' || f._type === 'collection') && f._relate[0],
              );
              return (
                <Space wrap key={j.as} data-testid="ds-join">
                  <Tag>{j.as}</Tag>
                  <Typography.Text>{t('ds.joinFrom')}</Typography.Text>
                  <Select
                    aria-label={t('ds.joinFrom')}
                    style={{ minWidth: 120 }}
                    value={j.from ?? BASE}
                    options={aliasOptions.filter((a) => a.value !== j.as)}
                    onChange={(from: string) => editRow('joins', i, (x) => ({ ...x, from }))}
                  />
                  <Typography.Text>{t('ds.joinAlong')}</Typography.Text>
                  <Select
                    aria-label={t('ds.joinAlong')}
                    style={{ minWidth: 180 }}
                    value={j.field || undefined}
                    data-testid="ds-join-field"
                    options={relFields.map((f) => ({
                      value: f._field,
                      label: `${f._name} → ${tableName(f._relate[0]!)}`,
                    }))}
                    onChange={(field: string) => editRow('joins', i, (x) => ({ ...x, field }))}
                  />
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('common.remove')}
                    onClick={() => removeRow('joins', i)}
                  />
                </Space>
              );
            })}
            <Button
              icon={<PlusOutlined />}
              disabled={!doc.base}
              onClick={() =>
                editList('joins', (list) => [
                  ...list,
                  { as: freeKey([BASE, ...list.map((x) => x.as)], 'j'), from: BASE, field: '' },
                ])
              }
              data-testid="ds-add-join"
            >
              {t('ds.addJoin')}
            </Button>
          </Space>,
        )}

        {section(
          t('ds.columns'),
          <Space direction="vertical" style={{ width: '100%' }}>
            {doc.columns.map((c, i) => {
              const isFn = 'fn' in c.expr;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: positional rows, every input controlled
                <Space wrap key={i} data-testid="ds-column">
                  <Input
                    aria-label={t('ds.key')}
                    value={c.key}
                    maxLength={64}
                    style={{ width: 120 }}
                    onChange={(e) => renameColumn(i, e.target.value)}
                    data-testid="ds-column-key"
                  />
                  <Segmented
                    size="small"
                    value={isFn ? 'fn' : 'ref'}
                    options={[
                      { value: 'ref', label: t('ds.field') },
                      { value: 'fn', label: t('ds.function') },
                    ]}
                    onChange={(v) =>
                      setColumn(i, {
                        key: c.key,
                        expr:
                          v === 'fn' ? { fn: 'month', args: [{ ref: `${BASE}._created_at` }] } : { ref: '' },
                      })
                    }
                  />
                  {'ref' in c.expr ? (
                    <Select
                      aria-label={t('ds.field')}
                      style={{ minWidth: 220 }}
                      showSearch
                      optionFilterProp="label"
                      value={c.expr.ref || undefined}
                      options={refOptions.map(({ value, label }) => ({ value, label }))}
                      onChange={(ref: string) => setColumn(i, { key: c.key, expr: { ref } })}
                      data-testid="ds-column-ref"
                    />
                  ) : 'fn' in c.expr ? (
                    <FnEditor
                      expr={c.expr}
                      refs={refOptions}
                      refSet={refSet}
                      onChange={(expr) => setColumn(i, { key: c.key, expr })}
                    />
                  ) : null}
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('common.remove')}
                    onClick={() => removeRow('columns', i)}
                  />
                </Space>
              );
            })}
            <Button
              icon={<PlusOutlined />}
              disabled={!doc.base}
              onClick={() =>
                editList('columns', (list) => [
                  ...list,
                  {
                    key: freeKey(
                      list.map((c) => c.key),
                      'col',
                    ),
                    expr: { ref: '' },
                  },
                ])
              }
              data-testid="ds-add-column"
            >
              {t('ds.addColumn')}
            </Button>
          </Space>,
        )}

        {section(
          t('ds.filters'),
          <FilterBuilder
            key={`${current._id}-${filterKey}-${columnKeys.join(',')}`}
            fields={columnFields}
            conditions={filter.conditions}
            match={filter.match}
            onApply={(conds, match) => {
              const where = toQuery(conds, match, columnFields);
              setDoc((d) => {
                const { where: _old, ...rest } = d;
                return where === undefined ? rest : { ...rest, where };
              });
            }}
          />,
        )}

        {section(
          t('ds.grouping'),
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space wrap>
              <Typography.Text>{t('ds.groupBy')}</Typography.Text>
              <Select
                aria-label={t('ds.groupBy')}
                mode="multiple"
                style={{ minWidth: 220 }}
                value={doc.group ?? []}
                options={columnKeys.map((k) => ({ value: k, label: k }))}
                onChange={(group: string[]) => patch({ group })}
                data-testid="ds-group"
              />
            </Space>
            {aggregates.map((a, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: positional rows, every input controlled
              <Space wrap key={i} data-testid="ds-aggregate">
                <Input
                  aria-label={t('ds.key')}
                  value={a.key}
                  maxLength={64}
                  style={{ width: 120 }}
                  onChange={(e) => {
                    const old = a.key;
                    const key = e.target.value;
                    setDoc((d) => ({
                      ...d,
                      aggregates: (d.aggregates ?? []).map((x, k) => (k === i ? { ...x, key } : x)),
                      sort: d.sort?.map((s) => (s.key === old ? { ...s, key } : s)),
                    }));
                    setDisplay((list) => list.map((x) => (x.key === old ? { ...x, key } : x)));
                  }}
                  data-testid="ds-aggregate-key"
                />
                <Select
                  aria-label={t('ds.aggregate')}
                  style={{ width: 130 }}
                  value={a.fn}
                  options={AGG_FNS.map((f) => ({ value: f, label: t(`ds.agg.${f}`) }))}
                  onChange={(fn: AggFn) => editRow('aggregates', i, (x) => ({ ...x, fn }))}
                  data-testid="ds-aggregate-fn"
                />
                <Select
                  aria-label={t('ds.of')}
                  style={{ minWidth: 140 }}
                  allowClear
                  placeholder={t('ds.rows')}
                  value={a.of}
                  options={columnKeys.map((k) => ({ value: k, label: k }))}
                  onChange={(of?: string) =>
                    editRow('aggregates', i, (x) => {
                      const { of: _o, ...rest } = x;
                      return of ? { ...rest, of } : rest;
                    })
                  }
                  data-testid="ds-aggregate-of"
                />
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('common.remove')}
                  onClick={() => removeRow('aggregates', i)}
                />
              </Space>
            ))}
            <Button
              icon={<PlusOutlined />}
              disabled={!doc.columns.length}
              onClick={() =>
                setDoc((d) => {
                  const list = d.aggregates ?? [];
                  const taken = [...d.columns.map((c) => c.key), ...list.map((a) => a.key)];
                  return { ...d, aggregates: [...list, { key: freeKey(taken, 'agg'), fn: 'count' }] };
                })
              }
              data-testid="ds-add-aggregate"
            >
              {t('ds.addAggregate')}
            </Button>
          </Space>,
        )}

        {section(
          t('ds.sort'),
          <Space direction="vertical" style={{ width: '100%' }}>
            {sort.map((s, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: positional rows, every input controlled
              <Space wrap key={i}>
                <Select
                  aria-label={t('ds.sort')}
                  style={{ minWidth: 160 }}
                  value={s.key}
                  options={outKeys.map((k) => ({ value: k, label: k }))}
                  onChange={(key: string) => editRow('sort', i, (x) => ({ ...x, key }))}
                />
                <Segmented
                  size="small"
                  value={s.order ?? 'asc'}
                  options={[
                    { value: 'asc', label: t('ds.asc') },
                    { value: 'desc', label: t('ds.desc') },
                  ]}
                  onChange={(order) => editRow('sort', i, (x) => ({ ...x, order: order as 'asc' | 'desc' }))}
                />
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('common.remove')}
                  onClick={() => removeRow('sort', i)}
                />
              </Space>
            ))}
            <Button
              icon={<PlusOutlined />}
              disabled={!outKeys.length}
              onClick={() => editList('sort', (list) => [...list, { key: outKeys[0]!, order: 'asc' }])}
            >
              {t('ds.addSort')}
            </Button>
          </Space>,
        )}

        {section(
          t('ds.display'),
          <Table
            size="small"
            rowKey="key"
            pagination={false}
            dataSource={displayRows}
            scroll={{ x: true }}
            data-testid="ds-display"
            columns={[
              {
                title: t('ds.shown'),
                width: 70,
                render: (_, r) => (
                  <Checkbox
                    aria-label={`${t('ds.shown')} ${r.key}`}
                    checked={r.shown}
                    onChange={(e) =>
                      setDisplay((list) =>
                        e.target.checked
                          ? [...list, { key: r.key, title: r.key }]
                          : list.filter((x) => x.key !== r.key),
                      )
                    }
                  />
                ),
              },
              { title: t('ds.key'), dataIndex: 'key' },
              {
                title: t('ds.title'),
                render: (_, r) => (
                  <Input
                    aria-label={`${t('ds.title')} ${r.key}`}
                    size="small"
                    disabled={!r.shown}
                    maxLength={128}
                    value={r.title ?? ''}
                    onChange={(e) =>
                      setDisplay((list) =>
                        list.map((x) => (x.key === r.key ? { ...x, title: e.target.value } : x)),
                      )
                    }
                  />
                ),
              },
              {
                title: t('ds.order'),
                width: 90,
                render: (_, r) =>
                  r.shown ? (
                    <Space.Compact>
                      <Button
                        size="small"
                        icon={<ArrowUpOutlined />}
                        aria-label={t('ds.up')}
                        onClick={() => moveDisplay(r.key, -1)}
                      />
                      <Button
                        size="small"
                        icon={<ArrowDownOutlined />}
                        aria-label={t('ds.down')}
                        onClick={() => moveDisplay(r.key, 1)}
                      />
                    </Space.Compact>
                  ) : null,
              },
            ]}
          />,
        )}

        {section(
          t('ds.preview'),
          previewError ? (
            <Alert type="warning" showIcon message={previewError} data-testid="ds-preview-error" />
          ) : preview ? (
            <Table
              size="small"
              data-testid="ds-preview"
              loading={previewing}
              pagination={false}
              scroll={{ x: true }}
              rowKey={(_, i) => String(i)}
              dataSource={preview.rows}
              columns={preview.output.map((o) => ({
                key: o.key,
                dataIndex: o.key,
                title: display.find((d) => d.key === o.key)?.title || o.key,
                render: (v: unknown) => (v === null || v === undefined ? '' : String(v)),
              }))}
            />
          ) : (
            <Empty description={t('ds.previewEmpty')} />
          ),
          preview?.count !== undefined ? (
            <Typography.Text type="secondary" data-testid="ds-preview-count">
              {t('ds.rowCount', { count: preview.count })}
            </Typography.Text>
          ) : null,
        )}
      </div>

      <Drawer
        open={versions !== null}
        title={t('ds.versions')}
        onClose={() => setVersions(null)}
        width={Math.min(420, typeof window === 'undefined' ? 420 : window.innerWidth)}
      >
        <List
          dataSource={versions ?? []}
          locale={{ emptyText: <Empty description={t('ds.noVersions')} /> }}
          renderItem={(v) => (
            <List.Item
              data-testid="ds-version"
              actions={[
                <Popconfirm
                  key="restore"
                  title={t('ds.restoreConfirm', { version: v.version })}
                  onConfirm={() => void restore(v.version)}
                >
                  <Button size="small">{t('ds.restore')}</Button>
                </Popconfirm>,
              ]}
            >
              v{v.version}
              {current._version === v.version ? <Tag color="green">{t('ds.current')}</Tag> : null}
              <Typography.Text type="secondary">{new Date(v.createdAt).toLocaleString()}</Typography.Text>
            </List.Item>
          )}
        />
      </Drawer>
    </div>
  );
}

/** A computed column: the function and its arguments (a column of a table, or a literal). */
function FnEditor({
  expr,
  refs,
  refSet,
  onChange,
}: {
  expr: { fn: ExprFn; args: ExprInput[] };
  refs: { value: string; label: string }[];
  refSet: Set<string>;
  onChange(e: ExprInput): void;
}) {
  const { t } = useTranslation();
  const spec = EXPR_FNS[expr.fn];
  const fixed = Array.isArray(spec.args) ? spec.args.length : null;
  const setArg = (i: number, text: string) =>
    onChange({ fn: expr.fn, args: expr.args.map((a, j) => (j === i ? parseArg(text, refSet) : a)) });
  return (
    <Space wrap>
      <Select
        aria-label={t('ds.function')}
        style={{ width: 130 }}
        value={expr.fn}
        options={(Object.keys(EXPR_FNS) as ExprFn[]).map((f) => ({ value: f, label: t(`ds.fn.${f}`) }))}
        onChange={(fn: ExprFn) => {
          const s = EXPR_FNS[fn];
          const n = Array.isArray(s.args) ? s.args.length : Math.max(2, expr.args.length);
          const args = Array.from({ length: n }, (_, i) => expr.args[i] ?? { value: '' });
          onChange({ fn, args });
        }}
        data-testid="ds-fn"
      />
      {expr.args.map((a, i) => (
        <AutoComplete
          // biome-ignore lint/suspicious/noArrayIndexKey: an argument's place is its identity
          key={i}
          aria-label={`${t('ds.argument')} ${i + 1}`}
          style={{ width: 180 }}
          value={argText(a)}
          options={refs.map(({ value }) => ({ value }))}
          filterOption={(input, o) => String(o?.value ?? '').includes(input)}
          onChange={(text: string) => setArg(i, text)}
          data-testid="ds-fn-arg"
        />
      ))}
      {fixed === null ? (
        <Button
          size="small"
          icon={<PlusOutlined />}
          aria-label={t('ds.addArgument')}
          disabled={expr.args.length >= 8}
          onClick={() => onChange({ fn: expr.fn, args: [...expr.args, { value: '' }] })}
        />
      ) : null}
    </Space>
  );
}
