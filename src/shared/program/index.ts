export * from './limits.ts';
export * from './steps.ts';
export type * from './types.ts';
export * from './trigger.ts';
