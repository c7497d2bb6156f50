export * from './limits.ts';
export * from './steps.ts';
export * from './trigger.ts';
export type * from './types.ts';
