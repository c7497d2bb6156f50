/**
 * The client's app shell (index.html) as answered for every client route (history-API fallback).
 *
 * Routes that draw pages (everything but sign-in) get hints for the page path's chunk next to the
 * entry (`page-preload.json`, written by the build's runtime-chunks plugin): the browser fetches and
 * compiles it while the entry runs, instead of after. The entry itself is unchanged; sign-in screens
 * get the plain file, so nobody downloads page code before signing in.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface AppShell {
  /** The HTML to answer for a client route's path. */
  html(pathname: string): string;
}

interface PagePreload {
  js?: unknown;
  css?: unknown;
}

const SAFE_FILE = /^assets\/[\w.-]+\.(?:js|css)$/;

/** Sign-in and the screens before it: no page code. `{custom}` prefixes a 24-hex project id. */
export function isSignInPath(pathname: string): boolean {
  return (
    /^\/(?:[0-9a-f]{24}\/)?login(?:\/|$)/.test(pathname) || pathname === '/pc-only' || pathname === '/reset'
  );
}

/** Reads index.html (and the build's preload list, when there) once. Null without a client build. */
export function loadAppShell(clientDir: string): AppShell | null {
  const indexFile = path.join(clientDir, 'index.html');
  if (!fs.existsSync(indexFile)) return null;
  const plain = fs.readFileSync(indexFile, 'utf8');
  let hints = '';
  try {
    const list = JSON.parse(
      fs.readFileSync(path.join(clientDir, 'page-preload.json'), 'utf8'),
    ) as PagePreload;
    const files = (v: unknown) =>
      Array.isArray(v) ? v.filter((f): f is string => typeof f === 'string' && SAFE_FILE.test(f)) : [];
    hints = [
      ...files(list.js).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
      // Preloaded with the same CORS mode as the stylesheet link the chunk loader adds later.
      ...files(list.css).map((f) => `<link rel="preload" as="style" crossorigin href="/${f}">`),
    ].join('\n    ');
  } catch {
    // No list (an older build, or a dev build): the plain shell everywhere.
  }
  const withHints =
    hints && plain.includes('</head>') ? plain.replace('</head>', `  ${hints}\n  </head>`) : plain;
  return { html: (pathname) => (isSignInPath(pathname) ? plain : withHints) };
}
