import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';
import { participantLogin } from './support/login.js';
import { pdfWithText } from './support/pdf.js';

/**
 * The uploader and the preview dialog in Chromium against the built portal, on the feedback
 * form (/my-message?tab=feedback: up to 3 files, jpg/png/pdf, 10 MB): refused type and size,
 * two PDFs and an image picked at once (two upload, the third waits), one cancelled, retried and
 * deleted; then the image rotated and zoomed, a step to the PDF, and its character count read
 * in the PDF viewer page the dialog frames. Piece uploads are slowed down by the test so the
 * queue can be seen.
 */
let portal: Portal;
let files: string;

const USER = { username: 'demo5', password: 'Demo@2025' };
// 36 Latin letters; the footer line "Page 1 of 1" is a page number, which the spec's rule drops.
const PDF_TEXT = 'Smart medical insurance fund supervision';
const PDF_CHARS = PDF_TEXT.replace(/[^A-Za-z]/g, '').length;
const PIECE_DELAY_MS = 2500;
const ARTIFACTS = fileURLToPath(new URL('./artifacts', import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A 480x300 RGB PNG: blue sky over a green field with a red square in the top-left corner, so a
 * rotation shows in the screenshots.
 */
function landscapePng(width = 480, height = 300): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const i = row + 1 + x * 3;
      const [r, g, b] =
        x < 90 && y < 90 ? [220, 40, 40] : y < height * 0.6 ? [120, 170 + Math.round((y / height) * 60), 235] : [70, 160, 80];
      raw[i] = r;
      raw[i + 1] = g;
      raw[i + 2] = b;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  portal = await startPortal();
  files = mkdtempSync(join(tmpdir(), 'contest-files-e2e-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(files, '申报书.pdf'), pdfWithText(PDF_TEXT, 'Page 1 of 1'));
  writeFileSync(join(files, '演示文稿.pdf'), pdfWithText('Presentation slides', 'Page 1 of 1'));
  writeFileSync(join(files, '现场照片.png'), landscapePng());
  writeFileSync(join(files, '说明.txt'), 'plain text');
  // Over the feedback form's 10 MB: refused in the browser before a byte is sent.
  writeFileSync(join(files, '大文件.pdf'), Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(11 * 1024 * 1024)]));
});

afterAll(async () => {
  await portal?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

const login = (page: Page) => participantLogin(page, portal.url, USER);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('files: uploader and preview', () => {
  let b: Browser;
  let page: Page;
  let uploader: Locator;
  const errors: string[] = [];
  const row = (name: string) => uploader.getByRole('listitem').filter({ hasText: name });
  const state = (name: string) => row(name).getByTestId('upload-state');

  afterAll(async () => b?.close());

  it('refuses a file of another type and one over the size limit', async () => {
    b = await openBrowser();
    page = b.page;
    page.on('pageerror', (err) => errors.push(err.message));
    await login(page);
    await page.goto(`${portal.url}/my-message?tab=feedback`);
    uploader = page.getByTestId('feedback').getByTestId('multi-upload');
    await uploader.waitFor();

    const input = uploader.getByTestId('upload-input');
    await input.setInputFiles(join(files, '说明.txt'));
    expect(await state('说明.txt').innerText()).toBe('不支持的文件上传类型');
    await input.setInputFiles(join(files, '大文件.pdf'));
    expect(await state('大文件.pdf').innerText()).toBe('大小超限');
    expect(await row('大文件.pdf').getAttribute('data-status')).toBe('error_exceedFileSize');
    // Refused files hold no place; the user clears them.
    for (const name of ['说明.txt', '大文件.pdf']) await row(name).getByRole('button', { name: '移除' }).click();
    expect(await uploader.getByRole('listitem').count()).toBe(0);
  });

  it('uploads two files at once while the third waits; cancels, retries and deletes one', async () => {
    // Each piece is held back, as on a slow line, so the queue is there to see.
    // Matched by path: a piece's fields ride in the query string, which a glob would have to spell out.
    const isPiece = (url: URL) => url.pathname === '/api/attachment/piece/upload';
    const sent: { type: string | undefined; name: string | null; bytes: number }[] = [];
    await page.route(isPiece, async (route) => {
      const request = route.request();
      sent.push({
        type: request.headers()['content-type'],
        name: new URL(request.url()).searchParams.get('name'),
        bytes: request.postDataBuffer()?.length ?? 0,
      });
      await sleep(PIECE_DELAY_MS);
      // The uploader may have aborted the request meanwhile (cancel).
      await route.continue().catch(() => {});
    });

    await uploader.getByTestId('upload-input').setInputFiles(['申报书.pdf', '演示文稿.pdf', '现场照片.png'].map((f) => join(files, f)));
    expect(await state('申报书.pdf').innerText()).toMatch(/^上传进度 \d+%$/);
    expect(await state('演示文稿.pdf').innerText()).toMatch(/^上传进度 \d+%$/);
    expect(await state('现场照片.png').innerText()).toBe('排队中');
    await b.screenshot('files-uploader-queue');

    await row('演示文稿.pdf').getByRole('button', { name: '取消上传' }).click();
    expect(await state('演示文稿.pdf').innerText()).toBe('已取消!');
    // A place is free: the waiting image starts.
    await expect.poll(() => state('现场照片.png').innerText()).toMatch(/^上传进度 \d+%$/);

    await row('申报书.pdf').and(uploader.locator('[data-status="ok"]')).waitFor({ timeout: 30_000 });
    await row('现场照片.png').and(uploader.locator('[data-status="ok"]')).waitFor({ timeout: 30_000 });

    await row('演示文稿.pdf').getByRole('button', { name: '重新上传' }).click();
    await row('演示文稿.pdf').and(uploader.locator('[data-status="ok"]')).waitFor({ timeout: 30_000 });
    await page.unroute(isPiece);
    // Each piece went out raw: its bytes as the body, its fields (the UTF-8 name too) in the query.
    expect(sent.length).toBeGreaterThanOrEqual(4);
    for (const piece of sent) expect(piece.type).toBe('application/octet-stream');
    expect(new Set(sent.map((piece) => piece.name))).toEqual(new Set(['申报书.pdf', '演示文稿.pdf', '现场照片.png']));
    expect(sent.every((piece) => piece.bytes > 0)).toBe(true);

    await row('演示文稿.pdf').and(uploader.locator('[data-status="ok"]')).getByRole('button', { name: '删除' }).click();
    expect(await state('演示文稿.pdf').innerText()).toBe('已删除!');
    expect(await uploader.locator('[data-status="ok"]').count()).toBe(2);
    await page.mouse.move(0, 0); // no tooltip in the picture
    await uploader.screenshot({ path: join(ARTIFACTS, 'files-uploader.png') });
  });

  it('previews the image (旋转, wheel zoom), steps to the PDF and reads its character count', async () => {
    const stored = uploader.locator('[data-status="ok"]');
    const names = await stored.locator('.multi-upload__name').allInnerTexts();
    expect([...names].sort()).toEqual(['申报书.pdf', '现场照片.png'].sort());
    await stored.filter({ hasText: '现场照片.png' }).getByRole('button', { name: '现场照片.png' }).click();

    const dialog = page.locator('.preview-dialog');
    const image = dialog.getByTestId('preview-image');
    await image.waitFor();
    await dialog.getByTestId('preview-loading').waitFor({ state: 'detached' });
    expect(await dialog.getByTestId('preview-title').innerText()).toBe('现场照片.png');

    await dialog.getByRole('button', { name: /旋\s*转/ }).click();
    expect(await image.getAttribute('data-rotation')).toBe('90');
    expect(await image.evaluate((img) => img.style.transform)).toContain('rotate(90deg)');

    const box = (await dialog.getByTestId('image-stage').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300); // rolling away: zoom in
    await expect.poll(async () => Number(await image.getAttribute('data-scale'))).toBeGreaterThan(1);
    await page.screenshot({ path: join(ARTIFACTS, 'files-preview-image.png') });

    // The PDF is the other stored file: whichever side it is on, step to it.
    const pdfIndex = names.indexOf('申报书.pdf');
    const imageIndex = names.indexOf('现场照片.png');
    await dialog.getByTestId('preview-body').hover();
    await dialog.getByRole('button', { name: pdfIndex < imageIndex ? '上一个' : '下一个' }).click();
    await expect.poll(() => dialog.getByTestId('preview-title').innerText()).toBe('申报书.pdf');

    // The viewer page in its frame draws the page and tells the dialog, which drops the overlay.
    const frame = dialog.getByTestId('pdf-frame');
    expect(decodeURIComponent((await frame.getAttribute('src'))!)).toMatch(/^\/pdf\/web\/viewer\.html\?file=blob:http:\/\/127\.0\.0\.1:\d+\//);
    const viewer = page.frameLocator('[data-testid="pdf-frame"]');
    await viewer.locator('canvas[data-page="1"]').waitFor();
    await dialog.getByTestId('preview-loading').waitFor({ state: 'detached' });
    await expect.poll(() => viewer.getByTestId('pdf-char-count').innerText()).toContain(`总字符数：${PDF_CHARS}`);
    expect(await viewer.getByTestId('pdf-char-count').innerText()).toContain('共 1 页');
    await page.screenshot({ path: join(ARTIFACTS, 'files-preview-pdf.png') });

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });

  it('the viewer page opens only this site’s links', async () => {
    const foreign = encodeURIComponent('https://example.com/a.pdf');
    await page.goto(`${portal.url}/pdf/web/viewer.html?file=${foreign}`);
    await page.getByText('文件链接无效，无法打开').waitFor();
    await b.screenshot('files-viewer-foreign-link');
    expect(errors).toEqual([]);
  });
});
