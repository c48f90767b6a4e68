import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { codeSplitting, treeshake } from './build/chunking';
import { initialJsReport } from './build/initial-js-report';
import { TEST_FILES, isolatedTestFiles } from './build/test-isolation';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';

export default defineConfig({
  // Admin/expert code on the home page fails the build; the budget only warns until it is met.
  plugins: [react(), initialJsReport()],
  server: { port: 5173, proxy: { '/api': apiTarget } },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // Never inline assets as data: URLs; the production CSP allows images from 'self' only.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1500,
    // Two pages: the portal, and the PDF viewer page the preview dialog frames
    // (/pdf/web/viewer.html?file=...), served by the app like any built file.
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        pdfViewer: fileURLToPath(new URL('./pdf/web/viewer.html', import.meta.url)),
      },
      // The home page's first load: see build/chunking.ts.
      output: { codeSplitting },
      treeshake,
    },
  },
  test: {
    environment: 'happy-dom',
    // Vitest keeps one core for itself (cores - 1 workers): on the 2-core CI machine that ran every
    // file one after another. The main process hardly works while files run; two workers took the
    // suites from 218/289/124 s to 133/183/84 s (server PGlite / web / server PostgreSQL).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['./src/test-setup.ts'],
    // Form tests drive antd through many renders; on a busy 2-core machine 5 s is not enough.
    testTimeout: 20_000,
    // Most files share one module graph per worker (isolate: false): importing antd, React and
    // the app again for each of 70 files was half the suite's time (322 s -> about 170 s on a
    // loaded 2-core machine). Files that replace modules (vi.mock) need a graph of their own, as
    // do the few listed in ISOLATED_FILES (test-isolation.ts says why).
    projects: [
      { extends: true, test: { name: 'shared', include: TEST_FILES, exclude: isolatedTestFiles(), isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolatedTestFiles(), isolate: true } },
    ],
  },
});
