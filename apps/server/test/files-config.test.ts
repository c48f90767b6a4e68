import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';

describe('file storage configuration', () => {
  it('defaults to DATA_DIR/files on disk and 15-minute links with a per-process key', () => {
    const c = loadConfig({ DATA_DIR: '/srv/contest' });
    expect(c.files).toEqual({ storage: { driver: 'disk', dir: '/srv/contest/files' }, linkSecret: undefined, linkTtlSeconds: 900, maxPiecesInFlight: 16, maxPiecesWaiting: 4096 });
  });

  it('reads the S3 settings', () => {
    const c = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'https://minio.example.org:9000',
      S3_BUCKET: 'contest-files',
      S3_ACCESS_KEY_ID: 'AKID',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'false',
      S3_KEY_PREFIX: 'portal/',
      S3_PUBLIC_ENDPOINT: 'https://files.example.org',
      FILE_LINK_SECRET: 'x'.repeat(32),
    });
    expect(c.files.storage).toEqual({
      driver: 's3',
      endpoint: 'https://minio.example.org:9000',
      bucket: 'contest-files',
      region: 'us-east-1',
      accessKeyId: 'AKID',
      secretAccessKey: 'secret',
      forcePathStyle: false,
      keyPrefix: 'portal/',
      presignExpiresSeconds: 300,
      publicEndpoint: 'https://files.example.org',
    });
    expect(c.files.linkSecret).toBe('x'.repeat(32));
  });

  it.each([
    [{ STORAGE_DRIVER: 's3' }, /S3_ENDPOINT is required when STORAGE_DRIVER=s3/],
    [{ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://h', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'k' }, /S3_SECRET_ACCESS_KEY is required/],
    [{ STORAGE_DRIVER: 'ftp' }, /STORAGE_DRIVER/],
    [{ S3_BUCKET: 'Bad_Bucket' }, /S3_BUCKET must be a valid bucket name/],
    [{ S3_KEY_PREFIX: '../up/' }, /S3_KEY_PREFIX/],
    [{ FILE_LINK_SECRET: 'short' }, /FILE_LINK_SECRET must be at least 32 characters$/],
    [{ FILE_LINK_TTL_SECONDS: '5' }, /FILE_LINK_TTL_SECONDS/],
    [{ S3_PRESIGN_TTL_SECONDS: '7200' }, /S3_PRESIGN_TTL_SECONDS/],
    [{ S3_PUBLIC_ENDPOINT: 'ftp://files.example.org' }, /S3_PUBLIC_ENDPOINT must start with http/],
  ])('rejects %o with one clear line', (env, pattern) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(pattern);
  });
});
