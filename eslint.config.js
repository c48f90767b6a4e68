// @ts-check
/**
 * ESLint runs in `npm test` (npm run lint). typescript-eslint's recommended rules without type
 * information (fast enough for every run), React's hook rules, and the project's own rule that
 * only apps/server/src/config reads process.env.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'apps/server/src/db/migrations/**', 'e2e/artifacts/**', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only apps/server/src/config reads process.env (CONTRIBUTING.md).' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Control characters are matched on purpose (sanitising, refusing C0 controls and bidi overrides).
      'no-control-regex': 'off',
      // Flags the `let x = null; try { x = … } catch { … }` shape used for fallbacks; tsc catches real dead stores.
      'no-useless-assignment': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Configuration, tooling, tests and benches may read the environment.
    files: ['apps/server/src/config/**', '**/*.test.ts', '**/*.test.tsx', 'apps/server/test/**', 'e2e/**', 'bench/**', '**/vite.config.ts', '**/*.child.ts', '**/vitest.config.ts', 'apps/server/drizzle.config.ts', 'apps/server/build.mjs'],
    rules: { 'no-restricted-properties': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
