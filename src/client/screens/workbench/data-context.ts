/** The data area's model (modules and tables), shared by its screens through the outlet. */
import { useOutletContext } from 'react-router';
import type { Entity, Module } from '../../api/workbench.ts';

export interface DataModel {
  modules: Module[];
  entities: Entity[];
  reload(): Promise<void>;
}

export const useDataModel = () => useOutletContext<DataModel>();
