/**
 * The table kind's tree toggle: rows of a table that relates to itself (a region's parent region)
 * nest under their parent. The tree field is the relation whose linked records are of the rows' own
 * table; rows whose parent is not among the loaded rows are roots.
 */
import type { FieldMeta } from '../kit/widget-context.ts';

type Row = Record<string, unknown>;
export type TreeRow = Row & { children?: TreeRow[] };

/** The relate field linking rows of this table to rows of the same table, if any row shows one. */
export function treeField(
  fields: readonly FieldMeta[] | undefined,
  rows: readonly Row[],
): string | undefined {
  for (const f of fields ?? []) {
    if (f.type !== 'relate') continue;
    for (const r of rows) {
      const linked = r[`___${f.key}`] as Row | null | undefined;
      if (
        linked &&
        typeof linked === 'object' &&
        linked.__entity !== undefined &&
        linked.__entity === r.__entity
      )
        return f.key;
    }
  }
  return undefined;
}

/** Rows nested by their parent field, in the loaded order; a cycle leaves its rows at the root. */
export function treeRows(rows: readonly Row[], parentField: string): TreeRow[] {
  const byId = new Map<string, TreeRow>();
  for (const r of rows) byId.set(String(r._id), { ...r });
  const roots: TreeRow[] = [];
  for (const r of rows) {
    const node = byId.get(String(r._id)) as TreeRow;
    const parentId = typeof r[parentField] === 'string' ? (r[parentField] as string) : '';
    let parent = parentId && parentId !== r._id ? byId.get(parentId) : undefined;
    // Refuse a parent that is this row's own descendant (a loop in the data).
    for (let p = parent, hops = 0; p && hops <= rows.length; hops++) {
      const up = typeof p[parentField] === 'string' ? byId.get(p[parentField] as string) : undefined;
      if (up === node) {
        parent = undefined;
        break;
      }
      p = up;
    }
    if (parent) {
      parent.children = parent.children ?? [];
      parent.children.push(node);
    } else roots.push(node);
  }
  return roots;
}
