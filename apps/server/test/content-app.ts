import type { FastifyInstance } from 'fastify';
import { registerIdentity } from '../src/modules/auth/identity.module.js';
import { registerContent, type ContentServices } from '../src/modules/content/content.module.js';
import { registerFiles } from '../src/modules/files/files.module.js';
import { createTestApp, type TestApp } from './helpers.js';

/**
 * An app with identity, files and the content module on a bare platform, so the content tests
 * do not depend on how app.ts wires the modules.
 */
export async function createContentTestApp(): Promise<TestApp & { content: ContentServices }> {
  const t = await createTestApp({}, { bare: true });
  let content: ContentServices | undefined;
  await t.app.register(
    async (api: FastifyInstance) => {
      const identity = await registerIdentity(api, t.app.deps);
      await registerFiles(api, t.app.deps, identity);
      content = await registerContent(api, t.app.deps, identity);
    },
    { prefix: '/api' },
  );
  await t.app.ready();
  return Object.assign(t, { content: content! });
}
