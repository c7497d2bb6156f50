// Runs one DDL statement (a managed index build or drop, auto-index.ts) on its own SQLite connection
// off the main thread: the server's connection keeps answering reads under WAL while the index is
// built; writers wait for the build's lock (busy timeout). Plain JS so it loads the same way under
// tsx and plain node. Protocol: workerData { file, statement, busyMs } → `{ ok: true }` or `{ error }`.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, statement, busyMs } = workerData;
let db;
try {
  db = new Database(file);
  db.pragma(`busy_timeout = ${busyMs}`);
  db.exec(statement);
  parentPort.postMessage({ ok: true });
} catch (err) {
  parentPort.postMessage({ error: String(err?.message ?? err) });
} finally {
  db?.close();
}
