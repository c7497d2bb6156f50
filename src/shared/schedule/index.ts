export * from './cron.ts';
export * from './term.ts';
