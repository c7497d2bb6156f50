import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { antdCss } from './scripts/vite-antd-css.ts';
import { scrollbarSizeCache } from './scripts/vite-scrollbar-cache.ts';

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react(), antdCss(), scrollbarSizeCache()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/io': { target: 'ws://localhost:8080', ws: true },
      '/yjs': { target: 'ws://localhost:8080', ws: true },
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
