/** A failed call: the server's code (or -2 for no answer) and its message. */
export class ApiError extends Error {
  readonly code: number;
  /** Already handled without a notice (codes 102, 104, 105). */
  readonly silent: boolean;

  constructor(code: number, msg: string, silent = false) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.silent = silent;
  }
}

/** Network failure without an answer (spec §8). */
export const NETWORK_ERROR = { code: -2, msg: '请求错误' } as const;
