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
import { participantLogin } from './support/login.js';
import { pdfWithText } from './support/pdf.js';

/**
 * Direct upload (docs/uploader.md, "Direct upload") in Chromium: the built portal on
 * `STORAGE_DRIVER=s3` against the verifying store (apps/server/test/verifying-s3.ts: SigV4 of the
 * part links, each part's SHA-256), both behind one address as a reverse proxy would serve them
 * (the bucket's path to the store, the rest to the portal), which is how the portal's CSP
 * (`connect-src 'self'`) lets the page reach the store. A 6 MB PDF picked on the feedback form goes
 * to the store in two signed parts, none through the portal's piece route, and is stored.
 * A 9.5 MB PDF (two parts) whose second part the proxy holds is cut off by a reload once the first
 * part is in the store; picked again, it resumes (docs/uploader.md, "Resume"): only the missing
 * parts reach the store, and one file is stored.
 */
let store: VerifyingS3;
let portal: Portal;
let proxy: Server;
let address: string;
let files: string;

const USER = { username: 'demo5', password: 'Demo@2025' };
const MB = 1024 * 1024;
const RESUMED = '续传方案.pdf';
const RESUMED_HEAD = pdfWithText('Resume after reload', 'Page 1 of 1');
const RESUMED_SIZE = 9.5 * MB;

/** Part PUTs the proxy passed on to the store, in order. */
const partsSent: { uploadId: string; partNumber: number }[] = [];
/** While set, part PUTs it matches are held (never passed on) until `releaseHeld`. */
let holdPart: ((partNumber: number) => boolean) | null = null;
const held: { destroy: () => void }[] = [];

function releaseHeld(): void {
  holdPart = null;
  for (const res of held.splice(0)) res.destroy();
}

/** One address for the page: `/<bucket>/...` to the store, the rest to the portal, the Host kept (the links are signed for it). */
function startProxy(): Promise<string> {
  proxy = createServer((req, res) => {
    const toStore = (req.url ?? '').startsWith(`/${store.bucket}/`);
    const target = new URL(toStore ? store.endpoint : portal.url);
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    if (toStore && req.method === 'PUT' && q.has('partNumber')) {
      const partNumber = Number(q.get('partNumber'));
      if (holdPart?.(partNumber)) {
        held.push(res);
        return;
      }
      partsSent.push({ uploadId: q.get('uploadId') ?? '', partNumber });
    }
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
  // Two parts (5 MB and the rest), under the feedback form's 10 MB (UPLOAD_RULES.FEEDBACK).
  writeFileSync(join(files, RESUMED), Buffer.concat([RESUMED_HEAD, Buffer.alloc(RESUMED_SIZE - RESUMED_HEAD.length, 0x20)]));
});

afterAll(async () => {
  await portal?.stop();
  releaseHeld();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await store?.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

/** Waits for a condition of the test's own state (the proxy's, the store's), polling it. */
async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (parts sent ${JSON.stringify(partsSent)}, held ${held.length})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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

    await participantLogin(page, address, USER);

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

  it('resumes after a reload sending only the parts the store lacks', async () => {
    const { page } = b;
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const completes: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && /\/attachment\/direct\/[^/]+\/complete$/.test(new URL(req.url()).pathname)) completes.push(req.url());
    });
    const objectsBefore = store.objects.size;
    const sentBefore = partsSent.length;

    await page.goto(`${address}/my-message?tab=feedback`);
    let uploader = page.getByTestId('feedback').getByTestId('multi-upload');
    await uploader.waitFor();
    // Part 1 goes through; part 2 is held by the proxy, as on a connection that stalls.
    holdPart = (n) => n > 1;
    await uploader.getByTestId('upload-input').setInputFiles(join(files, RESUMED));
    await until('part 1 in the store and a later part held', () => held.length > 0 && [...store.uploads.values()].some((u) => u.parts.has(1)));
    const before = partsSent.slice(sentBefore);
    expect(before.map((p) => p.partNumber)).toEqual([1]);
    const uploadId = before[0]!.uploadId;

    await page.reload();
    releaseHeld();
    expect(store.uploads.get(uploadId)?.parts.has(1)).toBe(true);
    expect([...(store.uploads.get(uploadId)?.parts.keys() ?? [])]).toEqual([1]);

    uploader = page.getByTestId('feedback').getByTestId('multi-upload');
    await uploader.waitFor();
    const afterReload = partsSent.length;
    await uploader.getByTestId('upload-input').setInputFiles(join(files, RESUMED));
    const row = uploader.getByRole('listitem').filter({ hasText: RESUMED });
    await row.and(uploader.locator('[data-status="ok"]')).waitFor({ timeout: 30_000 });
    expect(await row.count()).toBe(1);

    // Only the missing parts reached the store, under the same upload.
    const resumed = partsSent.slice(afterReload);
    expect(resumed.map((p) => p.partNumber)).toEqual([2]);
    expect(new Set(resumed.map((p) => p.uploadId))).toEqual(new Set([uploadId]));
    expect(completes).toHaveLength(1);
    // Exactly one object stored for it, whole.
    expect(store.objects.size).toBe(objectsBefore + 1);
    expect([...store.objects.values()].filter((o) => o.length === RESUMED_SIZE)).toHaveLength(1);
    expect(store.uploads.has(uploadId)).toBe(false);
    expect(store.refusals).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
