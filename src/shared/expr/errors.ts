/** Error kinds of the expression language. They never escape `evaluate`: they become result values. */
export type ExprErrorCode = 'parse' | 'limit' | 'type' | 'name' | 'call' | 'forbidden';

export class ExprError extends Error {
  constructor(
    readonly code: ExprErrorCode,
    message: string,
    readonly pos = -1,
  ) {
    super(message);
  }
}
