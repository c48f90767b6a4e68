import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { loadTestConfig } from './config/test-config.js';
import { apiMarkdown, openApiDocument, openApiJson } from './plugins/openapi.js';

/**
 * `npm run api:doc` writes docs/openapi.json and docs/api.md from the route table;
 * `npm run api:doc:check` (in `npm test`) fails when the committed ones differ. The app is built
 * whole on an in-memory PGlite with the test config, so the output depends on the code only.
 */
const docsDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs');

async function generate(): Promise<Record<string, string>> {
  const config = loadTestConfig({ DATABASE_URL: 'memory://', REDIS_URL: undefined });
  const app = await buildApp(config, { logger: false });
  try {
    await app.ready();
    const doc = openApiDocument(app);
    return { 'openapi.json': openApiJson(doc), 'api.md': apiMarkdown(doc) };
  } finally {
    await app.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const files = await generate();
  const stale: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    const path = join(docsDir, name);
    if (check) {
      if (read(path) !== text) stale.push(relative(process.cwd(), path));
    } else {
      writeFileSync(path, text);
      console.log(`wrote ${relative(process.cwd(), path)}`);
    }
  }
  if (stale.length) {
    console.error(`API description is stale: ${stale.join(', ')} differ from the routes. Run \`npm run api:doc\` and commit the result.`);
    process.exit(1);
  }
  if (check) console.log('API description is up to date (docs/openapi.json, docs/api.md).');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
