import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { initialJsReport } from './build/initial-js-report';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), initialJsReport(undefined, false)],
  server: { port: 5173, proxy: { '/api': apiTarget } },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // Never inline assets as data: URLs; the production CSP allows images from 'self' only.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1500,
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
  },
});
