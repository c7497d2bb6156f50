/** What every editor of the panel may need: project (pickers), page widgets (targets), language. */
import { createContext, useContext } from 'react';
import type { Lang } from './schema-fields.ts';

export interface PanelContextValue {
  project: string;
  widgets: { id: string; name?: string; kind: string }[];
  lang: Lang;
}

export const PanelContext = createContext<PanelContextValue>({ project: '', widgets: [], lang: 'en' });

export function usePanel(): PanelContextValue {
  return useContext(PanelContext);
}
