import { defineConfig } from 'drizzle-kit';

// Generation only (offline): migrations are applied by the server at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
});
