import { E, type ErrorDef } from '../errors.ts';

/** A refused query: a registry entry plus the JSON path at fault (`query.$and[1].value`). */
export class QueryError extends Error {
  readonly def: ErrorDef;
  readonly path: string;
  readonly detail: string;
  constructor(def: ErrorDef, path: string, detail: string) {
    super(`${def.msg}: ${path}: ${detail}`);
    this.name = 'QueryError';
    this.def = def;
    this.path = path;
    this.detail = detail;
  }
}

/** Throw QUERY_INVALID at `path`. */
export function invalid(path: string, detail: string): never {
  throw new QueryError(E.QUERY_INVALID, path, detail);
}

/** Throw QUERY_TOO_COMPLEX at `path`. */
export function tooComplex(path: string, detail: string): never {
  throw new QueryError(E.QUERY_TOO_COMPLEX, path, detail);
}
