/** The README's Security section quotes the policies the server sends: word for word. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APP_CSP } from '../../src/server/http/security-headers.ts';
import { sandboxFrameCsp } from '../../src/shared/sandbox-frame.ts';

const readme = fs.readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md'),
  'utf8',
);

describe('README security section', () => {
  it('quotes the app policy and the sandbox frame policy as sent', () => {
    const quoted = [...readme.matchAll(/```\n(.*?)\n```/g)].map((m) => m[1]);
    expect(quoted).toContain(APP_CSP);
    expect(quoted).toContain(sandboxFrameCsp('sha256-<hash>'));
  });
});
