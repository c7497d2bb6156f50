import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Member paging (#22, /system/user): the list walks a project's members in join order, so one page
 * of thousands reads only its rows instead of sorting them all.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('project_members_joined')
    .on('project_members')
    .columns(['project_id', 'created_at', 'user_id'])
    .execute();
}
