/** JSON Schema helpers for route declarations. */

import { CORE, crossCutting } from './plugin-kit.ts';

type Schema = Record<string, unknown>;

const NO_NUL = '^[^\\u0000]*$';

/** The success answer `{ error: 0, data }` around a data schema. */
export function ok(data: Schema = {}): Schema {
  return {
    type: 'object',
    properties: { error: { type: 'integer', const: 0 }, data },
    required: ['error'],
  };
}

/** A coded error answer `{ error, msg }`. */
export const errorAnswer: Schema = {
  type: 'object',
  properties: { error: { type: 'integer' }, msg: { type: 'string' } },
  required: ['error', 'msg'],
};

/** An object schema whose listed keys are all required unless marked optional with a trailing '?'. */
export function obj(props: Record<string, Schema>, extra: Schema = {}): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [key, schema] of Object.entries(props)) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    properties[name] = schema;
    if (!optional) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

/**
 * A string of at most maxLength. NUL is refused: PostgreSQL text cannot hold it (the insert fails
 * with a driver error) and SQLite would store what PostgreSQL cannot, so both answer 1000 alike.
 */
export const str = (maxLength = 255, extra: Schema = {}): Schema => ({
  type: 'string',
  maxLength,
  pattern: NO_NUL,
  ...extra,
});
export const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
export const bool = (): Schema => ({ type: 'boolean' });
export const id = (): Schema => ({ type: 'string', pattern: '^[0-9a-f]{24}$' });
export const anyObj = (): Schema => ({ type: 'object', additionalProperties: true });

/**
 * Schemas several areas use are registered once on the app (`addSchema`, see `sharedSchemas`) and
 * named by `$ref` in routes: one definition, one entry under `components.schemas` in the API docs.
 */
const sharedUser: Schema = obj({
  _id: str(),
  account: { type: ['string', 'null'] },
  nickname: str(),
  name: str(),
  phone: { type: ['string', 'null'] },
  avatar: { type: ['string', 'null'] },
  status: str(),
  createdAt: int(),
  owner: { type: ['string', 'null'] },
  wechat: bool(),
  role: {
    anyOf: [
      obj({
        _id: str(),
        name: str(),
        type: str(),
        home: { anyOf: [obj({ type: str(), value: str() }), { type: 'null' }] },
        options: obj({ apply: bool(), enable: bool(), reg: bool() }),
      }),
      { type: 'null' },
    ],
  },
  auth: { type: ['string', 'null'] },
});

const sharedProject: Schema = obj({
  _id: str(),
  _name: str(),
  _auth: str(),
  _owner: str(),
  _home: str(),
  _expired: { type: ['integer', 'null'] },
  _status: int(),
  _limited: bool(),
  role: { type: ['string', 'null'] },
});

/** Registered on the app before any area (see app.ts); `$id`s are what the refs below name. */
export const sharedSchemas: Schema[] = [
  { $id: 'ProjectParams', ...obj({ project: id() }) },
  { $id: 'User', ...sharedUser },
  { $id: 'Project', ...sharedProject },
];

/** Params `{ project }` (24-hex). */
export const projectParams: Schema = { $ref: 'ProjectParams#' };
/** The user object of login, userInfo and member tokens. */
export const userSchema: Schema = { $ref: 'User#' };
/** A project as the project list and project info answer it. */
export const projectSchema: Schema = { $ref: 'Project#' };

/** The shared schemas as a plugin every area depends on. */
export const schemasPlugin = crossCutting(CORE.schemas, (app) => {
  for (const schema of sharedSchemas) app.addSchema(schema);
});
