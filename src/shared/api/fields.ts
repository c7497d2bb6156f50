/**
 * The data model's fields as the admin API sends and takes them (spec "Field definition"), shared by
 * server and client, and the one map from a field's type to its query type.
 */
import type { FieldType as QueryType } from '../query/operators.ts';

/**
 * Field types (`_type`; spec: default string, also number, relate, collection, date, image, time),
 * then ours beyond the spec (README "Field types"): boolean, long text, single and multiple option,
 * email, phone, URL and attachment.
 */
export const FIELD_TYPES = [
  'string',
  'number',
  'date',
  'time',
  'image',
  'relate',
  'collection',
  'boolean',
  'longtext',
  'option',
  'options',
  'email',
  'phone',
  'url',
  'attachment',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * The query type of each field type. The spec's query language has operators for text, number, date,
 * time, relate and collection only, and a field's type defaults to string: an image field holds text
 * (a URL, or a JSON list of URLs) and is queried as text, e.g. `isnull` for "no picture".
 */
export const QUERY_TYPE_OF_FIELD = {
  string: 'text',
  number: 'number',
  date: 'date',
  time: 'time',
  image: 'text',
  relate: 'relate',
  collection: 'collection',
  boolean: 'boolean',
  longtext: 'text',
  option: 'option',
  options: 'options',
  email: 'text',
  phone: 'text',
  url: 'text',
  // A JSON list of {url, name, size, type}: text filters look in names; isnull is "no file".
  attachment: 'text',
} as const satisfies Record<FieldType, QueryType>;

/** The query type of a field type; undefined for a type the data model does not have. */
export function queryTypeOfField(type: unknown): QueryType | undefined {
  return typeof type === 'string' && Object.hasOwn(QUERY_TYPE_OF_FIELD, type)
    ? QUERY_TYPE_OF_FIELD[type as FieldType]
    : undefined;
}

/** Free JSON of a field: alias, number decimals, option list. */
export interface FieldOption {
  alias?: string;
  decimals?: number;
  info?: { enable?: boolean; list?: string[]; selection?: string };
  /** The auto-numbering rule (key) a text field takes its value from on create (shared/admin/numbering.ts). */
  increment?: string;
}

/** A field as the admin API answers it. */
export interface Field {
  _id: string;
  _entity: string;
  _name: string;
  /** The field's code (also `_key` and `_code`). */
  _field: string;
  _key: string;
  _code: string;
  _type: FieldType;
  _relate: string[];
  _option: FieldOption;
  _hide: boolean;
  _sort: number;
  _status: 'normal' | 'disabled';
}

/** What creating a field takes (`…/{entity}/field/create`). */
export interface FieldInput {
  name: string;
  type: FieldType;
  /** The code; generated when left out. */
  field?: string;
  /** The related table of a relate or collection field. */
  relate?: string;
  option?: FieldOption;
  hide?: boolean;
  sort?: number;
}
