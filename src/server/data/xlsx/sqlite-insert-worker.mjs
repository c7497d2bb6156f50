// Inserts an import's checked rows into a SQLite builder table on its own connection, off the main
// thread: multi-row INSERTs and the WAL checkpoints their commits trigger are synchronous in
// better-sqlite3 and would otherwise stall the server's event loop. Plain JS so it loads the same
// way under tsx and plain node. Protocol: `{ rows, links }` in → `{ ok: true }` or `{ error }` out,
// one short transaction per message.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, table, columns, linkTables, busyMs } = workerData;
const db = new Database(file);
db.pragma(`busy_timeout = ${busyMs}`);
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
// Checkpoint less often than the default 1,000 pages: random index inserts dirty many pages per
// chunk, and copying them back after every commit costs more than the inserts. The rest is
// checkpointed when the import ends, still on this thread.
db.pragma('wal_autocheckpoint = 10000');

const statements = new Map();
const quoted = columns.map((c) => `"${c}"`).join(',');
const one = `(${columns.map(() => '?').join(',')})`;
function insertRows(n) {
  let s = statements.get(n);
  if (!s) {
    s = db.prepare(`INSERT INTO "${table}" (${quoted}) VALUES ${`${one},`.repeat(n).slice(0, -1)}`);
    statements.set(n, s);
  }
  return s;
}
function insertLinks(t, n) {
  return db.prepare(
    `INSERT INTO "${t}" ("owner_id","target_id","sort") VALUES ${'(?,?,?),'.repeat(n).slice(0, -1)}`,
  );
}

const write = db.transaction((values, count, links) => {
  insertRows(count).run(values);
  links.forEach((flat, k) => {
    for (let i = 0; i < flat.length; i += 3 * 5000) {
      const part = flat.slice(i, i + 3 * 5000);
      insertLinks(linkTables[k], part.length / 3).run(part);
    }
  });
});

parentPort.on('message', (msg) => {
  if (msg === 'close') {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // A busy database checkpoints later, on its own.
    }
    db.close();
    parentPort.close();
    return;
  }
  try {
    // BEGIN IMMEDIATE: take the write lock up front (waiting up to busyMs) rather than failing on upgrade.
    write.immediate(msg.values, msg.count, msg.links);
    parentPort.postMessage({ ok: true });
  } catch (err) {
    parentPort.postMessage({ error: String(err?.message ? err.message : err) });
  }
});
