import { type RawBuilder, sql } from 'kysely';
import type { Cond, FieldType, NormalizedQuery, Pred } from '../../shared/query/index.ts';
import type { Dialect } from '../db/index.ts';

/**
 * Compiles a NormalizedQuery into SQL for one builder table, mirroring the reference evaluator in
 * src/shared/query exactly (see its README, "Semantics the SQL compilers must mirror"). Columns are
 * our own generated names; every value is a bound parameter.
 */

export interface ColumnInfo {
  /** The query type of the field. */
  type: FieldType;
  /** Column name (scalar fields) or link table (collections). */
  column: string;
}

export type ColumnMap = Record<string, ColumnInfo>;

type Sql = RawBuilder<unknown>;

const TRUE = sql`1 = 1`;
const refCache = new WeakMap<ColumnMap, Map<string, Map<string, Sql>>>();
const FALSE = sql`1 = 0`;

export class QueryCompiler {
  constructor(
    private readonly dialect: Dialect,
    private readonly columns: ColumnMap,
    /** The alias of the entity table in the statement. */
    private readonly alias = 't',
    /**
     * SQLite: may a range (number or date) look rows up through the column's own index? Not for a
     * whole-table aggregate: without statistics SQLite takes any range for selective, and a lookup per
     * row over most of a table is slower than the scan (a covering index is still scanned whole).
     */
    private readonly rangeByIndex = true,
  ) {}

  /** The column a range compares: on SQLite `+col` where a range must not pick the column's index. */
  private rangeCol(field: string): Sql {
    const c = this.col(field);
    return this.rangeByIndex || this.dialect === 'postgres' ? c : sql`+${c}`;
  }

  protected col(field: string): Sql {
    // A column's reference is made once per (column map, alias, field): a map belongs to one table
    // version's meta, and references are immutable, so statements share them.
    let byAlias = refCache.get(this.columns);
    if (!byAlias) {
      byAlias = new Map();
      refCache.set(this.columns, byAlias);
    }
    let refs = byAlias.get(this.alias);
    if (!refs) {
      refs = new Map();
      byAlias.set(this.alias, refs);
    }
    let r = refs.get(field);
    if (!r) {
      if (field === '_id') r = sql.ref(`${this.alias}._id`);
      else {
        const c = this.columns[field];
        if (!c) throw new Error(`unknown field ${field}`);
        r = sql.ref(`${this.alias}.${c.column}`);
      }
      refs.set(field, r);
    }
    return r;
  }

  /** `x` holds a value: not null and, for text-like columns, not ''. */
  private present(field: string, textLike: boolean): Sql {
    const c = this.col(field);
    return textLike ? sql`(${c} IS NOT NULL AND ${c} <> '')` : sql`${c} IS NOT NULL`;
  }

  where(cond: Cond | null): Sql {
    return cond ? this.cond(cond) : TRUE;
  }

  private cond(c: Cond): Sql {
    switch (c.kind) {
      case 'and':
        return c.items.length
          ? sql`(${sql.join(
              c.items.map((i) => this.cond(i)),
              sql` AND `,
            )})`
          : TRUE;
      case 'or':
        return c.items.length
          ? sql`(${sql.join(
              c.items.map((i) => this.cond(i)),
              sql` OR `,
            )})`
          : FALSE;
      case 'false':
        return FALSE;
      default:
        return this.pred(c);
    }
  }

  private pred(p: Pred): Sql {
    const pg = this.dialect === 'postgres';
    switch (p.kind) {
      case 'text': {
        const c = this.col(p.field);
        const v = p.value;
        switch (p.op) {
          case 'contain':
            return pg ? sql`strpos(${c}, ${v}) > 0` : sql`instr(${c}, ${v}) > 0`;
          case 'notcontain':
            return sql`(${this.present(p.field, true)} AND ${pg ? sql`strpos(${c}, ${v}) = 0` : sql`instr(${c}, ${v}) = 0`})`;
          case 'eq':
            return sql`${c} = ${v}`;
          case 'ne':
            return sql`(${this.present(p.field, true)} AND ${c} <> ${v})`;
          case 'start':
            return pg ? sql`left(${c}, char_length(${v})) = ${v}` : sql`substr(${c}, 1, length(${v})) = ${v}`;
          case 'end':
            return pg
              ? sql`(char_length(${c}) >= char_length(${v}) AND right(${c}, char_length(${v})) = ${v})`
              : sql`(length(${c}) >= length(${v}) AND substr(${c}, -length(${v})) = ${v})`;
        }
        break;
      }
      case 'number': {
        const c = p.op === 'eq' || p.op === 'ne' ? this.col(p.field) : this.rangeCol(p.field);
        if (p.op === 'between') return sql`(${c} >= ${p.value[0]} AND ${c} <= ${p.value[1]})`;
        if (p.op === 'notbetween')
          return sql`(${c} IS NOT NULL AND (${c} < ${p.value[0]} OR ${c} > ${p.value[1]}))`;
        const v = p.value;
        switch (p.op) {
          case 'eq':
            return sql`${c} = ${v}`;
          case 'ne':
            return sql`(${c} IS NOT NULL AND ${c} <> ${v})`;
          case 'gt':
            return sql`${c} > ${v}`;
          case 'lt':
            return sql`${c} < ${v}`;
          case 'gte':
            return sql`${c} >= ${v}`;
          case 'lte':
            return sql`${c} <= ${v}`;
        }
        break;
      }
      case 'date': {
        const c = this.rangeCol(p.field);
        const parts: Sql[] = [];
        if (p.from !== null) parts.push(sql`${c} >= ${p.from}`);
        if (p.to !== null) parts.push(sql`${c} < ${p.to}`);
        const inRange = parts.length ? sql.join(parts, sql` AND `) : TRUE;
        return p.op === 'in'
          ? sql`(${c} IS NOT NULL AND ${inRange})`
          : sql`(${c} IS NOT NULL AND NOT (${inRange}))`;
      }
      case 'time':
        return sql`${this.col(p.field)} = ${p.value}`;
      case 'relate':
        return this.inList(this.col(p.field), p.value);
      case '_id':
        return p.op === 'in'
          ? this.inList(this.col('_id'), p.value)
          : sql`NOT ${this.inList(this.col('_id'), p.value)}`;
      case 'collection': {
        const link = this.link(p.field);
        return sql`EXISTS (SELECT 1 FROM ${link} l WHERE l.owner_id = ${this.col('_id')} AND ${this.inList(sql.ref('l.target_id'), p.value)})`;
      }
      case 'boolean':
        return sql`${this.col(p.field)} = ${p.value ? 1 : 0}`;
      case 'option':
        return p.op === 'in'
          ? this.inList(this.col(p.field), p.value)
          : sql`(${this.present(p.field, true)} AND NOT ${this.inList(this.col(p.field), p.value)})`;
      case 'options': {
        const has = (values: string[]) => this.optionsHold(p.field, values);
        if (p.op === 'hasany') return has(p.value);
        if (p.op === 'hasall')
          return sql`(${sql.join(
            p.value.map((v) => has([v])),
            sql` AND `,
          )})`;
        return sql`(${this.present(p.field, true)} AND NOT ${has(p.value)})`;
      }
      case 'null': {
        let present: Sql;
        if (p.type === 'collection') {
          present = sql`EXISTS (SELECT 1 FROM ${this.link(p.field)} l WHERE l.owner_id = ${this.col('_id')})`;
        } else {
          present = this.present(p.field, p.type !== 'number' && p.type !== 'date' && p.type !== 'boolean');
        }
        return p.op === 'notnull' ? present : sql`NOT ${present}`;
      }
    }
    throw new Error('unreachable predicate');
  }

  /**
   * What `where(cond)`'s SQL text depends on, as a key, and the values it binds, in the order it binds
   * them — so a caller can keep the text per key and send only the values (db/compiled.ts, which keeps
   * a text only when its compiled parameters are exactly these). Mirrors `cond` and `pred`: a change
   * there changes this too (`tests/unit/sql-query-shape.test.ts` compares them on every kind).
   */
  shape(cond: Cond | null): { key: string; params: unknown[] } {
    const params: unknown[] = [];
    const key = cond ? this.condShape(cond, params) : 'T';
    return { key: `${this.dialect}|${this.alias}|${this.rangeByIndex ? 'i' : 's'}|${key}`, params };
  }

  private condShape(c: Cond, params: unknown[]): string {
    switch (c.kind) {
      case 'and':
      case 'or':
        return `${c.kind === 'and' ? '&' : '|'}(${c.items.map((i) => this.condShape(i, params)).join(',')})`;
      case 'false':
        return 'F';
      default:
        return this.predShape(c, params);
    }
  }

  private predShape(p: Pred, params: unknown[]): string {
    const head = `${p.kind}.${p.op}.${p.field}`;
    switch (p.kind) {
      case 'text':
        params.push(p.value);
        if (p.op === 'start') params.push(p.value);
        else if (p.op === 'end') params.push(p.value, p.value);
        return head;
      case 'number':
        if (p.op === 'between' || p.op === 'notbetween') params.push(p.value[0], p.value[1]);
        else params.push(p.value);
        return head;
      case 'date':
        if (p.from !== null) params.push(p.from);
        if (p.to !== null) params.push(p.to);
        return `${head}.${p.from === null ? '' : 'f'}${p.to === null ? '' : 't'}`;
      case 'time':
        params.push(p.value);
        return head;
      case 'boolean':
        params.push(p.value ? 1 : 0);
        return head;
      case 'null':
        return `${head}.${p.type}`;
      default:
        // Lists: relate, _id, collection, option, options (hasall binds each value in its own test).
        for (const v of p.value) params.push(v);
        return `${head}.${p.value.length}`;
    }
  }

  /** A multiple-option column (a JSON list of strings) holds one of `values`. */
  private optionsHold(field: string, values: string[]): Sql {
    const c = this.col(field);
    const items =
      this.dialect === 'postgres'
        ? sql`jsonb_array_elements_text(CASE WHEN ${c} IS NULL OR ${c} = '' THEN '[]'::jsonb ELSE ${c}::jsonb END) j(value)`
        : sql`json_each(CASE WHEN ${c} IS NULL OR ${c} = '' THEN '[]' ELSE ${c} END) j`;
    return sql`EXISTS (SELECT 1 FROM ${items} WHERE ${this.inList(sql.ref('j.value'), values)})`;
  }

  private link(field: string): Sql {
    const c = this.columns[field];
    if (c?.type !== 'collection') throw new Error(`not a collection: ${field}`);
    return sql.table(c.column);
  }

  private inList(c: Sql, ids: string[]): Sql {
    if (ids.length === 0) return FALSE;
    return sql`${c} IN (${sql.join(ids.map((id) => sql`${id}`))})`;
  }

  /**
   * ORDER BY: the keys in their order (ascending nulls first, descending nulls last; text in code
   * point order), then `_id` ascending as the final tie-break (once: a sort on `_id` already orders
   * every row apart).
   *
   * `_id` is never null, so it takes no null order on PostgreSQL: a key's null order must match an
   * index's for the index to serve the ORDER BY, and the primary key (in the "C" collation, ddl.ts)
   * has the default one (ascending nulls last; read backwards for descending). Managed indexes end in
   * the same `_id` key (auto-index.ts). SQLite sorts nulls first ascending by itself.
   */
  orderBy(q: NormalizedQuery): Sql {
    const pg = this.dialect === 'postgres';
    const keys: Sql[] = [];
    let byId = false;
    for (const k of q.sort) {
      const dir = k.order === 'desc' ? sql`DESC` : sql`ASC`;
      if (k.field === '_id') {
        keys.push(sql`${this.idKey()} ${dir}`);
        byId = true;
        break;
      }
      const info = this.columns[k.field];
      if (!info || info.type === 'collection' || info.type === 'options') continue;
      const textLike = info.type !== 'number' && info.type !== 'date' && info.type !== 'boolean';
      const c = this.col(k.field);
      const expr = pg && textLike ? sql`${c} COLLATE "C"` : c;
      const nulls = pg ? (k.order === 'desc' ? sql` NULLS LAST` : sql` NULLS FIRST`) : sql``;
      keys.push(sql`${expr} ${dir}${nulls}`);
    }
    if (!byId) keys.push(sql`${this.idKey()} ASC`);
    return sql.join(keys);
  }

  /** `_id` as a sort key: code point order (PostgreSQL: the column's own collation, said again). */
  private idKey(): Sql {
    const c = this.col('_id');
    return this.dialect === 'postgres' ? sql`${c} COLLATE "C"` : c;
  }
}
