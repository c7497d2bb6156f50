/** Where field editors are used: the project (for uploads) and the table (for its write grant). */
import { createContext, useContext } from 'react';

export interface FieldContextValue {
  project?: string;
  entity?: string;
}

export const FieldContext = createContext<FieldContextValue>({});

export const useFieldContext = () => useContext(FieldContext);
