// Runs one DDL statement (a managed index build, auto-index.ts) in a child process with its own
// SQLite connection. A child, not a worker thread: a write arriving while the index is built kills
// it (SIGKILL), which stops SQLite mid-statement at once (a thread cannot be stopped inside a native
// call); WAL ignores the uncommitted frames it leaves and the OS releases its locks, so the write
// goes on at once and the database is as before the build. Plain JS so it runs under plain node.
// Protocol: argv[2] = JSON { file, statement, busyMs }; exit code 0 when done, else 1 with the
// error's message on stderr.
import Database from 'better-sqlite3';

const { file, statement, busyMs } = JSON.parse(process.argv[2] ?? '{}');
let db;
try {
  db = new Database(file);
  db.pragma(`busy_timeout = ${Number(busyMs) || 0}`);
  db.exec(statement);
  db.close();
  process.exit(0);
} catch (err) {
  try {
    db?.close();
  } catch {}
  process.stderr.write(String(err?.message ?? err));
  process.exit(1);
}
