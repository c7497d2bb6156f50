/**
 * The server bundle is ASCII only: V8 holds a module's source for the life of the process, and a
 * single character past Latin-1 (an arrow in a comment) makes it a two-byte string, twice the memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without types
import { buildServer } from '../../scripts/build-server.mjs';
import { ROOT } from '../helpers/import-graph.ts';

const out = path.join(ROOT, 'dist/test-server-bundle');
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

it('writes every module of the server bundle in ASCII', async () => {
  await (buildServer as (dir: string) => Promise<void>)(out);
  const files = fs.readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
  expect(files.length).toBeGreaterThan(10);
  const wide = files.filter((f) => /[\u0080-\uffff]/.test(fs.readFileSync(path.join(out, f), 'utf8')));
  expect(wide).toEqual([]);
  // The escapes stand where comments held such characters (the error registry's ranges use dashes).
  const all = files.map((f) => fs.readFileSync(path.join(out, f), 'utf8')).join('\n');
  expect(all).toMatch(/\\u2013/);
});
