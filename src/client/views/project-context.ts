/** The project a data view works in, for pickers shared with the workbench (RelatePicker). */
import { createContext } from 'react';

export const ViewProjectContext = createContext<string | null>(null);
