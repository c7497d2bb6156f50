/** The series rows panel the column and line charts share (widgets/kit/SeriesPanel.tsx). */
export { SeriesPanel } from '../kit/SeriesPanel.tsx';
