/** Custom panels by kind, for what a generated form cannot express well; every other kind is generated. */
import type { ComponentType } from 'react';
import type { CustomPanelProps } from '../PropsForm.tsx';
import { ProgramPanel } from './ProgramPanel.tsx';
import { SeriesPanel } from './SeriesPanel.tsx';
import { TablePanel } from './TablePanel.tsx';

export const CUSTOM_PANELS: Record<string, ComponentType<CustomPanelProps>> = {
  table: TablePanel,
  'chart-column': SeriesPanel,
  'chart-line': SeriesPanel,
  program: ProgramPanel,
};
