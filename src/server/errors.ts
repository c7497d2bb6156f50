import { E, type ErrorDef } from '../shared/errors.ts';

/** An error a caller may see: a registry entry plus an optional detail for the message. */
export class AppError extends Error {
  readonly def: ErrorDef;
  readonly detail: string | undefined;
  constructor(def: ErrorDef, detail?: string) {
    super(detail ? `${def.msg}: ${detail}` : def.msg);
    this.def = def;
    this.detail = detail;
  }
}

/** Throw a coded error. */
export function fail(def: ErrorDef, detail?: string): never {
  throw new AppError(def, detail);
}

export { E };
