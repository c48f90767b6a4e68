import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { startVerifyingS3, type VerifyingS3 } from '../apps/server/test/verifying-s3.js';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';
import { solveSlider } from './support/slider.js';
import { submitLogin } from './support/login.js';
import { pdfWithText } from './support/pdf.js';

/**
 * Direct upload (docs/uploader.md, "Direct upload") in Chromium: the built portal on
 * `STORAGE_DRIVER=s3` against the verifying store (apps/server/test/verifying-s3.ts: SigV4 of the
 * part links, each part's SHA-256), both behind one address as a reverse proxy would serve them
 * (the bucket's path to the store, the rest to the portal), which is how the portal's CSP
 * (`connect-src 'self'`) lets the page reach the store. A 6 MB PDF picked on the feedback form goes
 * to the store in two signed parts, none through the portal's piece route, and is stored.
 */
let store: VerifyingS3;
let portal: Portal;
let proxy: Server;
let address: string;
let files: string;

const USER = { username: 'demo5', password: 'Demo@2025' };
const MB = 1024 * 1024;

/** One address for the page: `/<bucket>/...` to the store, the rest to the portal, the Host kept (the links are signed for it). */
function startProxy(): Promise<string> {
  proxy = createServer((req, res) => {
    const toStore = (req.url ?? '').startsWith(`/${store.bucket}/`);
    const target = new URL(toStore ? store.endpoint : portal.url);
    const upstream = request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  store = await startVerifyingS3();
  address = await startProxy();
  portal = await startPortal({
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: store.endpoint,
    S3_PUBLIC_ENDPOINT: address,
    S3_BUCKET: store.bucket,
    S3_ACCESS_KEY_ID: store.accessKeyId,
    S3_SECRET_ACCESS_KEY: store.secretAccessKey,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
  });
  files = mkdtempSync(join(tmpdir(), 'contest-direct-e2e-'));
  // A real PDF head (the completion sniffs it) padded past one 5 MB part.
  writeFileSync(join(files, '方案全文.pdf'), Buffer.concat([pdfWithText('Direct upload', 'Page 1 of 1'), Buffer.alloc(6 * MB - 1000, 0x20)]));
});

afterAll(async () => {
  await portal?.stop();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await store?.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

describe('direct upload to the store', () => {
  let b: Browser;
  afterAll(async () => b?.close());

  it('sends a file straight to the store in signed parts and stores it', async () => {
    b = await openBrowser();
    const { page } = b;
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const sent: Request[] = [];
    page.on('request', (req) => sent.push(req));

    await page.goto(address);
    await page.getByRole('button', { name: '登 录' }).or(page.getByRole('button', { name: '登录' })).first().click();
    const modal = page.getByTestId('auth-modal');
    await modal.getByPlaceholder('请输入用户名', { exact: true }).fill(USER.username);
    await modal.getByPlaceholder('请输入密码', { exact: true }).fill(USER.password);
    await submitLogin(page, modal);
    await solveSlider(page);
    await page.waitForURL(/\/my-sign/);

    await page.goto(`${address}/my-message?tab=feedback`);
    const uploader = page.getByTestId('feedback').getByTestId('multi-upload');
    await uploader.waitFor();
    await uploader.getByTestId('upload-input').setInputFiles(join(files, '方案全文.pdf'));
    const row = uploader.getByRole('listitem').filter({ hasText: '方案全文.pdf' });
    await row.and(uploader.locator('[data-status="ok"]')).waitFor({ timeout: 60_000 });

    const paths = sent.map((r) => `${r.method()} ${new URL(r.url()).pathname}`);
    expect(paths.filter((p) => p.includes('/attachment/piece/'))).toEqual([]);
    expect(paths.filter((p) => p === 'POST /api/attachment/direct/start')).toHaveLength(1);
    expect(paths.filter((p) => /\/attachment\/direct\/[^/]+\/complete$/.test(p))).toHaveLength(1);
    const puts = sent.filter((r) => r.method() === 'PUT' && new URL(r.url()).pathname.startsWith(`/${store.bucket}/`));
    expect(puts).toHaveLength(2);
    for (const put of puts) expect(put.headers().authorization).toBeUndefined();
    // The store took both parts at their signed checksums and holds the one object.
    expect(store.refusals).toEqual([]);
    expect([...store.objects.values()].map((o) => o.length)).toEqual([6 * MB - 1000 + pdfWithText('Direct upload', 'Page 1 of 1').length]);
    expect(errors).toEqual([]);
  });
});
