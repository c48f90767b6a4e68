import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp;
const INDEX = '<!doctype html><html lang="zh-cn"><body><div id="root"></div></body></html>';
const VIEWER = '<!doctype html><html lang="zh-cn"><head><title>PDF</title></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd.js'), 'console.log(1);'.repeat(200));
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(dist, 'pdf', 'web'), { recursive: true });
  writeFileSync(join(dist, 'pdf', 'web', 'viewer.html'), VIEWER);
  t = await createTestApp({ WEB_DIST_DIR: dist });
});

afterAll(async () => {
  await t.close();
});

describe('serving the web app', () => {
  it('serves index.html at / without long caching', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it.each(['/my-sign', '/admin/home', '/expert/index', '/no/such/page', '/dynamic-detail?id=1'])(
    'falls back to index.html for the SPA route %s',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
    },
  );

  it('serves the PDF viewer page itself at /pdf/web/viewer.html, not the SPA, whatever the file parameter', async () => {
    const file = encodeURIComponent('blob:http://localhost:3000/0b6c3f5e-8d2a');
    for (const url of ['/pdf/web/viewer.html', `/pdf/web/viewer.html?file=${file}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(VIEWER);
      // Framed by our own pages only; its pdf.js worker and the blob: link of the file are allowed.
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toMatch(/worker-src 'self' blob:/);
      expect(csp).toMatch(/connect-src 'self' blob:/);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('other static files revalidate', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('a missing asset is a real 404, not the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/old-chunk-Zz99.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<html');
  });

  it('unknown /api paths stay JSON, and non-GET methods get no HTML', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('NOT_FOUND');
    const post = await t.app.inject({ method: 'POST', url: '/some/page' });
    expect(post.statusCode).toBe(404);
    expect(post.json().code).toBe('NOT_FOUND');
  });

  it('does not serve files outside the dist folder', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/..%2f..%2fetc%2fpasswd' });
    expect(res.body).not.toContain('root:');
  });
});
