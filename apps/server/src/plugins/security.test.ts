import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurity, storeOrigins } from './security.js';

const s3 = { driver: 's3' as const, endpoint: 'http://minio:9000', bucket: 'contest', forcePathStyle: true };

describe('media-src for presigned store links', () => {
  it('names the origin browsers reach the store at: path-style, public endpoint, virtual-hosted', () => {
    expect(storeOrigins({ driver: 'disk' })).toEqual([]);
    expect(storeOrigins(s3)).toEqual(['http://minio:9000']);
    expect(storeOrigins({ ...s3, publicEndpoint: 'https://files.example.cn/store' })).toEqual(['https://files.example.cn']);
    expect(storeOrigins({ ...s3, endpoint: 'https://s3.example.com', forcePathStyle: false })).toEqual(['https://contest.s3.example.com']);
  });

  it('adds them to media-src (previews) and connect-src (direct part uploads) only, keeping the rest of the policy strict', async () => {
    const app = Fastify();
    await registerSecurity(app, { https: false, storeOrigins: ['https://files.example.cn'] });
    app.get('/x', async () => 'ok');
    const csp = String((await app.inject({ method: 'GET', url: '/x' })).headers['content-security-policy']);
    expect(csp).toMatch(/media-src 'self' blob: https:\/\/files\.example\.cn/);
    expect(csp).toMatch(/connect-src 'self' blob: https:\/\/files\.example\.cn(;|$)/);
    expect(csp).toMatch(/default-src 'self'(;|$)/);
    expect(csp).toMatch(/img-src 'self' data: blob:(;|$)/);
    await app.close();
  });
});
