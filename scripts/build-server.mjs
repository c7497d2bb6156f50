// Builds the server to plain JavaScript (dist/server), so production runs `node dist/server/main.js`
// with no TypeScript loader and no wrapper processes. esbuild bundles our own modules (one file to
// parse instead of hundreds to resolve), keeps packages from node_modules external, and splits at
// dynamic imports so what first requests do not need (widget renders, xlsx, QuickJS, exports) is
// only read when used. The worker files are plain .mjs and are copied beside the bundle.
//
//   node scripts/build-server.mjs          build when a server source is newer than the last build
//   node scripts/build-server.mjs --force  always build
//   node scripts/build-server.mjs --out dist/x   build a private copy (two levels under the root)
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist/server');
const stamp = path.join(outdir, 'main.js');
const SOURCES = ['src/server', 'src/shared', 'widgets', 'schemas', 'playground'];

function newest(dir) {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/** True when dist/server is missing or older than any server-side source. */
export function serverStale() {
  if (!fs.existsSync(stamp)) return true;
  const built = fs.statSync(stamp).mtimeMs;
  return SOURCES.map((d) => path.join(root, d)).some((d) => fs.existsSync(d) && newest(d) > built);
}

/** Every `new Worker(new URL('./x.mjs', import.meta.url))` target under src/server. */
function workerFiles(dir = path.join(root, 'src/server')) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...workerFiles(p));
    else if (entry.name.endsWith('-worker.mjs')) out.push(p);
  }
  return out;
}

/**
 * V8 keeps each module's source for the life of the process, and one character past Latin-1 makes it
 * a two-byte string: our main chunk held 1.8 MB instead of 0.9 MB for one arrow in a comment. esbuild
 * already escapes such characters in code (its ascii charset); what remains is comments, where an
 * escape changes nothing but the comment's text.
 */
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;
function asciiOnly(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const text = fs.readFileSync(file, 'utf8');
    if (!NON_ASCII.test(text)) continue;
    fs.writeFileSync(
      file,
      text.replace(NON_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
  }
}

/** `out` is dist/server unless a caller (a test) wants its own copy; keep it two levels under the root. */
export async function buildServer(out = outdir) {
  fs.rmSync(out, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/server/main.ts', app: 'src/server/app.ts' },
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    // Widget renders are reached only through lazy `render()` thunks the server never calls; their
    // styles mean nothing here.
    loader: { '.css': 'empty' },
    logLevel: 'warning',
    legalComments: 'none',
  });
  asciiOnly(out);
  // Workers are resolved relative to the module that starts them; in the bundle that is main.js or
  // a chunk, so they sit next to both.
  for (const file of workerFiles()) {
    const name = path.basename(file);
    fs.copyFileSync(file, path.join(out, name));
    fs.copyFileSync(file, path.join(out, 'chunks', name));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const force = process.argv.includes('--force');
  const at = process.argv.indexOf('--out');
  if (at > 0) {
    // A private copy (a test's server processes), always built.
    await buildServer(path.resolve(root, process.argv[at + 1]));
  } else if (force || serverStale()) {
    const t = Date.now();
    await buildServer();
    process.stdout.write(`server built to dist/server in ${Date.now() - t} ms\n`);
  }
}
