import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { launchPortal } from './support/portal.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DATA_DIR of a portal installed once with `--demo` and stopped; every journey starts on a copy. */
    portalTemplate: string | null;
  }
}

/**
 * Once per run: install the demo portal (migrations, seed, demo data) and stop it, so each
 * journey copies the result instead of spending ~10 s installing it again. The copy is what a
 * fresh `--demo` start produces; the journeys stay independent of each other.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'contest-e2e-template-'));
  const portal = await launchPortal(dir);
  await portal.stop({ keepData: true });
  project.provide('portalTemplate', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
