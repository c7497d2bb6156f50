// `npm start`: build the client and the server when their sources are newer than the last build,
// then run the built server in this very process (plain `node`, no TypeScript loader, no wrapper
// processes beyond npm itself; in production run `node dist/server/main.js` directly).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist/client/index.html');

function newest(dir) {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const sources = ['src/client', 'src/shared', 'widgets', 'schemas']
  .map((d) => path.join(root, d))
  .filter((d) => fs.existsSync(d));
const stale = !fs.existsSync(built) || sources.some((d) => newest(d) > fs.statSync(built).mtimeMs);
if (stale) run(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build']);
// The server build checks its own sources and does nothing when dist/server is current.
run(process.execPath, [path.join(root, 'scripts/build-server.mjs')]);
await import(pathToFileURL(path.join(root, 'dist/server/main.js')).href);
