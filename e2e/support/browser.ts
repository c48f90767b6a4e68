import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../artifacts', import.meta.url));

// The machine has no internet: without these flags Chromium keeps trying to reach Google.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** A fresh profile per journey (launch() rejects --user-data-dir, so a persistent context). */
export async function openBrowser(opts: { locale?: string; width?: number; height?: number } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'contest-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    headless: true,
    args: ARGS,
    locale: opts.locale ?? 'zh-CN',
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 860 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    screenshot: async (name) => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const path = join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
