/**
 * Online backup of the SQLite database while the server runs, through SQLite's backup API
 * (better-sqlite3's `backup()`), from a connection of its own: the copy is one consistent snapshot
 * taken in a single read transaction (WAL readers never block the server's writes, and a copy made
 * in one step cannot be restarted by them). The copy is then switched out of WAL mode, so it is one
 * self-contained file, and checked with `PRAGMA integrity_check`.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface BackupResult {
  file: string;
  bytes: number;
  pages: number;
}

/** Copy the database at `source` to `target` (which must not exist yet). */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  const to = path.resolve(target);
  if (!fs.existsSync(source)) throw new Error(`no database at ${source}`);
  if (fs.existsSync(to)) throw new Error(`${to} exists already; name a new file`);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const db = new SQLite(source, { fileMustExist: true });
  let pages = 0;
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(to, {
      progress: ({ totalPages }) => {
        pages = totalPages;
        // Everything in the next step: one snapshot, never restarted by the server's writes.
        return 1 << 30;
      },
    });
  } catch (err) {
    fs.rmSync(to, { force: true });
    throw err;
  } finally {
    db.close();
  }
  const copy = new SQLite(to);
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy failed its integrity check: ${String(check)}`);
    pages ||= Number(copy.pragma('page_count', { simple: true }));
  } finally {
    copy.close();
  }
  return { file: to, bytes: fs.statSync(to).size, pages };
}
