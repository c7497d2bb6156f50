/**
 * Record triggers as the data layer sees them: a write tells what it did, in its transaction, and
 * whoever listens may write more in the same transaction (or fail it). The program area implements
 * these (program/triggers.ts); the data area only calls them, so it imports nothing of programs.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { EntityMeta } from './meta.ts';

export interface RecordEvent {
  op: 'create' | 'update' | 'remove';
  meta: EntityMeta;
  id: string;
  /** The row before the write (null for a create). */
  before: Record<string, unknown> | null;
  /** The row after the write (null for a remove). */
  after: Record<string, unknown> | null;
}

/** Called after each record write, inside its transaction. */
export interface WriteHooks {
  afterWrite(trx: Kysely<DB>, event: RecordEvent): Promise<void>;
  /**
   * Whether anything listens to this kind of write to this table. Answering false lets the write
   * skip reading the rows the event would carry (absent: always asked).
   */
  wants?(meta: EntityMeta, op: RecordEvent['op']): boolean;
}

/** The user a write is made for, as expressions see it (`$$USER`). */
export interface WriteUser {
  _id: string;
  account: string | null;
  nickname: string;
  phone: string | null;
}

/** Opens the hooks of one write transaction; `settle` runs once it ended, committed or not. */
export interface RecordTriggers {
  begin(
    projectId: string,
    user: WriteUser | null,
  ): { hooks: WriteHooks; settle(committed: boolean): Promise<void> };
}
