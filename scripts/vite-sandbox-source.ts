/**
 * Vite plugin: `import source from './x.ts?sandbox-source'` gives the module bundled into one
 * self-contained classic script, as a string. The builder-code sandbox starts its worker from that
 * text inside an opaque-origin frame (src/shared/sandbox-frame.ts), which may load nothing from a URL:
 * Vite's own `?worker` answers a URL (and, under the dev server, an ES module that imports more).
 * The same bundle in dev, build and tests; minified in builds.
 */
import { rolldown } from 'rolldown';
import type { Plugin } from 'vite';

const QUERY = '?sandbox-source';

export function sandboxSource(): Plugin {
  let minify = false;
  return {
    name: 'sandbox-source',
    configResolved(config) {
      minify = config.command === 'build';
    },
    async load(id) {
      if (!id.endsWith(QUERY)) return null;
      const input = id.slice(0, -QUERY.length);
      const bundle = await rolldown({ input, platform: 'browser', logLevel: 'warn' });
      try {
        const { output } = await bundle.generate({ format: 'iife', minify });
        for (const file of await bundle.watchFiles) this.addWatchFile(file);
        return { code: `export default ${JSON.stringify(output[0].code)};`, map: null };
      } finally {
        await bundle.close();
      }
    },
  };
}
