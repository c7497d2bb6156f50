/** Modules and tables (entities) of the data model as the admin API answers them, shared by server and client. */

/** A module: a named group of tables in the workbench's tree. */
export interface Module {
  _id: string;
  _name: string;
  _sort: number;
  /** Its tables' ids. */
  _entity: string[];
  /** Spec fields kept for compatibility; always empty here. */
  _flow: string[];
  _api: string[];
}

/** A builder table. */
export interface Entity {
  _id: string;
  _name: string;
  _code: string;
  _module: string | null;
  _sort: number;
  _type: 'custom';
}
