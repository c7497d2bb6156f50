// `npm start`: build the client when its sources are newer than the last build, then run the server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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

const sources = ['src/client', 'src/shared', 'widgets', 'schemas']
  .map((d) => path.join(root, d))
  .filter((d) => fs.existsSync(d));
const stale = !fs.existsSync(built) || sources.some((d) => newest(d) > fs.statSync(built).mtimeMs);
if (stale) {
  const r = spawnSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const server = spawnSync('npx', ['tsx', 'src/server/main.ts'], { cwd: root, stdio: 'inherit' });
process.exit(server.status ?? 0);
