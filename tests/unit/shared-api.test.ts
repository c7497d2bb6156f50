/**
 * API payload types used by server and client live once, in src/shared/api/: neither side may declare
 * its own type or interface of the same name (it would drift from the other side's).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const shared = sources(join(ROOT, 'src/shared/api'));
const names = shared.flatMap((f) =>
  [...readFileSync(f, 'utf8').matchAll(/^export (?:interface|type) ([A-Z]\w*)/gm)].map((m) => m[1]!),
);

it('src/shared/api declares the payload types', () => {
  expect(names).toEqual(
    expect.arrayContaining([
      'RowError',
      'ImportResult',
      'Field',
      'FieldInput',
      'FieldType',
      'Module',
      'Entity',
    ]),
  );
});

it('no server or client file declares a payload type of its own', () => {
  const own: string[] = [];
  for (const f of [...sources(join(ROOT, 'src/server')), ...sources(join(ROOT, 'src/client'))]) {
    const text = readFileSync(f, 'utf8');
    for (const n of names)
      if (new RegExp(`^\\s*(?:export )?(?:interface ${n}\\b|type ${n}\\s*=)`, 'm').test(text))
        own.push(`${relative(ROOT, f)}: ${n}`);
  }
  expect(own).toEqual([]);
});
