/**
 * Vite plugin: rc-util's `getTargetScrollBarSize` (called by every antd Table on mount, and by modal
 * scroll locking) measures by appending a scrolling div to <body> and reading its size: a forced
 * layout of the whole document each time. On a page with many widgets that is the most expensive
 * thing a table does. The size only depends on the element's scrollbar styles (and the zoom), so the
 * measurement is cached by those: the first table of a kind measures, the rest read the cache.
 */
import type { Plugin } from 'vite';

const TARGET = /[\\/]@rc-component[\\/]util[\\/]es[\\/]getScrollBarSize\.js$/;
const ORIGINAL = 'export function getTargetScrollBarSize(target) {';

export const CACHED = `
const targetSizes = new Map();
export function getTargetScrollBarSize(target) {
  if (typeof document === 'undefined' || !target || !(target instanceof Element)) {
    return { width: 0, height: 0 };
  }
  const style = getComputedStyle(target);
  const bar = getComputedStyle(target, '::-webkit-scrollbar');
  const key = [style.scrollbarWidth, style.scrollbarColor, bar.width, bar.height, window.devicePixelRatio].join('|');
  let size = targetSizes.get(key);
  if (!size) {
    size = measuredTargetScrollBarSize(target);
    targetSizes.set(key, size);
  }
  return { width: size.width, height: size.height };
}
`;

export function scrollbarSizeCache(): Plugin {
  return {
    name: 'lc:scrollbar-size-cache',
    enforce: 'pre',
    transform(code, id) {
      if (!TARGET.test(id.split('?')[0]!)) return null;
      if (!code.includes(ORIGINAL))
        this.error('rc-util getScrollBarSize.js changed: review scripts/vite-scrollbar-cache.ts');
      return {
        code: code.replace(ORIGINAL, 'function measuredTargetScrollBarSize(target) {') + CACHED,
        map: null,
      };
    },
  };
}
