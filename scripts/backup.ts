/**
 * `npm run backup -- <file>`: an online backup of the SQLite database under DATA_DIR (default ./data)
 * while the server keeps running. See README "Backup and restore".
 */
import path from 'node:path';
import { backupSqlite } from '../src/server/ops/backup.ts';

const target = process.argv[2];
if (!target) {
  console.error('usage: npm run backup -- <file>');
  process.exit(2);
}
if (process.env.DATABASE_URL) {
  console.error('DATABASE_URL is set: back PostgreSQL up with pg_dump (see README).');
  process.exit(2);
}
const source = path.join(path.resolve(process.env.DATA_DIR || './data'), 'app.db');
try {
  const r = await backupSqlite(source, target);
  console.log(`backed up ${source} to ${r.file} (${r.pages} pages, ${r.bytes} bytes; integrity ok)`);
} catch (err) {
  console.error(`backup failed: ${(err as Error).message}`);
  process.exit(1);
}
