/**
 * Vite plugin: one copy of react-draggable. react-grid-layout imports it as ESM (build/cjs/cjs.mjs)
 * and react-resizable (CommonJS) requires it (build/cjs/cjs.js): two module instances, so the canvas's
 * `DraggableCore.defaultProps` change (no user-select hack: see designer/Canvas.tsx) reached the drag
 * handles but not the resize handles, and every unmount of a selected widget's handles restored the
 * page's text selection, a forced restyle of the whole canvas. Both now resolve to the CommonJS build.
 */
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

export function oneDraggable(): Plugin {
  const file = createRequire(import.meta.url).resolve('react-draggable');
  return {
    name: 'one-react-draggable',
    config: () => ({ resolve: { alias: [{ find: /^react-draggable$/, replacement: file }] } }),
  };
}
