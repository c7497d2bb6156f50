/** Cached look-ups of the pickers: one request per project (and entity) while the panel lives. */
import { useEffect, useState } from 'react';
import type { Entity, Field } from '../../api/workbench.ts';
import { type PageSummary, panelApi } from './api.ts';

const cache = new Map<string, Promise<unknown>>();

function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  let p = cache.get(key) as Promise<T> | undefined;
  if (!p) {
    p = load();
    cache.set(key, p);
    // A failed look-up is not kept: the next picker that opens asks again.
    p.catch(() => cache.delete(key));
  }
  return p;
}

/** Forgets cached look-ups (after the builder changed tables or pages elsewhere). */
export function clearPanelCache(): void {
  cache.clear();
}

function useLoad<T>(key: string | null, load: () => Promise<T>): { data: T | undefined; loading: boolean } {
  const [state, setState] = useState<{ key: string | null; data: T | undefined }>({
    key: null,
    data: undefined,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the look-up
  useEffect(() => {
    if (!key) return;
    let live = true;
    cached(key, load).then(
      (data) => live && setState({ key, data }),
      () => live && setState({ key, data: undefined }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return { data: state.key === key ? state.data : undefined, loading: !!key && state.key !== key };
}

export function useEntities(project: string) {
  return useLoad<Entity[]>(project ? `e:${project}` : null, () => panelApi.entities(project));
}

export function useDatasets(project: string) {
  return useLoad(project ? `d:${project}` : null, () => panelApi.datasets(project));
}

export function usePrograms(project: string) {
  return useLoad(project ? `g:${project}` : null, () => panelApi.programs(project));
}

export function useFields(project: string, entity: string | undefined) {
  return useLoad<Field[]>(project && entity ? `f:${project}:${entity}` : null, () =>
    panelApi.fields(project, entity!),
  );
}

export function usePages(project: string) {
  return useLoad<PageSummary[]>(project ? `p:${project}` : null, () => panelApi.pages(project));
}
