/**
 * Rows for bound tables on the canvas. In design mode the page runtime loads nothing (renders never
 * fetch), so a table bound to a project table drew only its index column and "No data". Here a widget
 * of a kind whose data role is a page of rows (a table, a list, a board) bound to a table by a literal
 * name shows that table's columns (its field meta, hidden and disabled fields left out, the widget's own column settings applied by its render) and its first
 * few rows, read through the builder's data API (the designer is for builders, who may read every
 * table of the project). One small query per table, shared by every widget bound to it and kept for
 * the designer session: never one per render, and none for unbound widgets.
 */
import { useEffect, useState } from 'react';
import type { FieldMeta, WidgetData } from '../../../widgets/kit/widget-context.ts';
import { getWidget } from '../../../widgets/registry.ts';
import { post } from '../api/request.ts';

/** How many rows a bound table shows on the canvas. */
export const DESIGN_ROWS = 5;

interface AdminField {
  _key: string;
  _name: string;
  _type: string;
  _hide: boolean;
  _status?: string;
}

/** What the builder's data API is asked: the table's field meta and its first rows (no count). */
export interface DesignDataSource {
  meta: (project: string, entity: string) => Promise<{ field: AdminField[] }>;
  rows: (
    project: string,
    entity: string,
    body: { page: { index: number; size: number } },
  ) => Promise<{ data: Record<string, unknown>[] }>;
}

const base = (project: string, entity: string) =>
  `/api/admin/data/${encodeURIComponent(project)}/${encodeURIComponent(entity)}`;

export const adminData: DesignDataSource = {
  meta: (project, entity) => post(`${base(project, entity)}/meta`, {}, { quiet: true, share: false }),
  rows: (project, entity, body) =>
    post(`${base(project, entity)}/query`, body, { quiet: true, share: false }),
};

const cache = new Map<string, Promise<WidgetData>>();

/** Forgets the rows read so far (a page opened in the designer reads them afresh). */
export function clearDesignData(): void {
  cache.clear();
}

/** The canvas data of a table of the project: its visible fields and first rows; errors as a message. */
export function designData(
  project: string,
  entity: string,
  source: DesignDataSource = adminData,
): Promise<WidgetData> {
  const key = `${project}/${entity}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = Promise.all([
      source.meta(project, entity),
      source.rows(project, entity, { page: { index: 1, size: DESIGN_ROWS } }),
    ]).then(
      ([meta, answer]): WidgetData => {
        const fields: FieldMeta[] = meta.field
          .filter((f) => f._status !== 'disabled')
          .map((f) => ({ key: f._key, name: f._name, type: f._type, hide: f._hide }));
        return { rows: answer.data, meta: { fields, total: answer.data.length }, loading: false };
      },
      (e: unknown) => {
        // Not kept: the next page opened asks again.
        cache.delete(key);
        return { rows: [], meta: {}, loading: false, error: e instanceof Error ? e.message : String(e) };
      },
    );
    cache.set(key, hit);
  }
  return hit;
}

/** The bound table's entity when a widget shows design data (a literal table name), else null. */
export function designEntity(kind: string, props: Record<string, unknown>): string | null {
  // Kinds that show a page of rows (their kind's data role) show the first ones on the canvas.
  if (getWidget(kind)?.data !== 'rows') return null;
  const entity = typeof props.entity === 'string' ? props.entity.trim() : '';
  return entity || null;
}

const LOADING: WidgetData = { rows: [], meta: {}, loading: true };

/** The design data of a table of `project`, loading until it is in. */
export function useDesignData(project: string, entity: string): WidgetData {
  const key = `${project}/${entity}`;
  const [state, setState] = useState<{ key: string; data: WidgetData } | null>(null);
  useEffect(() => {
    // No project (a canvas mounted on its own, as the bench does): nothing to read.
    if (!project) return;
    let live = true;
    void designData(project, entity).then((data) => live && setState({ key: `${project}/${entity}`, data }));
    return () => {
      live = false;
    };
  }, [project, entity]);
  return state?.key === key ? state.data : LOADING;
}
