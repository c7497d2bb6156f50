import type { Executor } from '../context.ts';

/** The input form's values, checked against its fields before the run began. */
export const input: Executor = (_step, ctx) => ctx.input;
