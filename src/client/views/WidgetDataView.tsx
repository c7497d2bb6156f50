/**
 * A table kind of a page (`table`, `advanced-table`) as the end user's data view: the same view list
 * menu entries open (DataView.tsx), with the kind's toggles as its features, its bound programs the
 * user is granted as toolbar buttons (run from the page: the page is their `key`), and what the user
 * does handed back as the kind's events.
 */
import type { DataViewRequest } from '../../../widgets/kit/widget-context.ts';
import { DataTableView } from './DataView.tsx';
import { useGrantedPrograms } from './use-granted-programs.ts';

const NONE: string[] = [];

export default function WidgetDataView(
  props: DataViewRequest & {
    project: string;
    /** The page the widget sits on (programs run from it). */
    pageId?: string | undefined;
    reloadSignal: number;
    onData(rows: Record<string, unknown>[], total: { n: number; exact: boolean }, loading: boolean): void;
  },
) {
  const programs = useGrantedPrograms(props.project, props.programs ?? NONE);
  const onEvent = props.onEvent;
  return (
    <DataTableView
      project={props.project}
      entity={props.entity}
      {...(props.dataset ? { dataset: { flow: props.dataset } } : {})}
      options={props.options}
      programs={programs}
      programKey={props.pageId ?? 'page'}
      settingsId={props.widget}
      {...(props.columns ? { columns: props.columns } : {})}
      {...(props.bordered !== undefined ? { bordered: props.bordered } : {})}
      {...(onEvent ? { onEvent } : {})}
      onData={props.onData}
      reloadSignal={props.reloadSignal}
    />
  );
}
