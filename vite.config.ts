import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { antdCss } from './scripts/vite-antd-css.ts';
import { oneDraggable } from './scripts/vite-one-draggable.ts';
import { runtimeChunks } from './scripts/vite-runtime-chunks.ts';
import { sandboxSource } from './scripts/vite-sandbox-source.ts';
import { scrollbarSizeCache } from './scripts/vite-scrollbar-cache.ts';
import { widgetSchemas } from './scripts/vite-widget-schemas.ts';
import { COMMON_KINDS } from './widgets/common-kinds.ts';

// The end-user page path in two files (see the plugin): the layout, page screens, renderer and the
// everyday kinds (those the runtime starts loading on route match).
const chunks = runtimeChunks('src/client', [
  'screens/home/RootLayout.tsx',
  'screens/page/PageScreen.tsx',
  'runtime/PageRenderer.tsx',
  ...COMMON_KINDS.map((k) => `../../widgets/${k}/render.tsx`),
]);

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [
    react(),
    antdCss(),
    scrollbarSizeCache(),
    oneDraggable(),
    sandboxSource(),
    // The kinds' props schemas load with the builder's screens, not on the end-user page path.
    widgetSchemas('widgets'),
    chunks.plugin,
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: { output: { codeSplitting: chunks.codeSplitting } },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/io': { target: 'ws://localhost:8080', ws: true },
      '/yjs': { target: 'ws://localhost:8080', ws: true },
      // The builder-code sandbox frame (its policy comes from the server).
      '/sandbox': 'http://localhost:8080',
    },
  },
  test: {
    root: '.',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          root: '.',
          sequence: { groupOrder: 0 },
          include: ['tests/unit/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}', 'widgets/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          root: '.',
          // Runs after the unit group, with its own bounded worker count.
          sequence: { groupOrder: 1 },
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two cores: keep files parallel but bounded.
          maxWorkers: 2,
        },
      },
    ],
  },
});
