import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform, type Readable } from 'node:stream';
import type { S3StorageConfig } from '../../config/config.js';
import { encodeKeySegment, EMPTY_SHA256, signS3Request } from './s3-signer.js';
import { assertStorageKey, type ByteRange, type PutMeta, type Storage } from './storage.js';

// A stalled store must not hold requests forever; large bodies keep the socket busy, so this
// bounds silence, not total time.
const SOCKET_IDLE_MS = 30_000;
// Reads are repeatable, so a transient failure (connection reset, 5xx) is retried.
const READ_ATTEMPTS = 3;

/**
 * Fails a body that is shorter or longer than declared: the store would otherwise wait for the
 * missing bytes until the socket times out.
 */
function exactLength(size: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      done(seen > size ? new Error(`body longer than ${size} bytes`) : null, chunk);
    },
    flush(done) {
      done(seen === size ? null : new Error(`body of ${seen} bytes, expected ${size}`));
    },
  });
}

export class S3Error extends Error {
  override name = 'S3Error';
  constructor(
    readonly statusCode: number,
    readonly s3Code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Deletions tried after a failed put before giving up on a store that keeps recreating the object. */
const LEFTOVER_CHECKS = 4;

/**
 * Any S3-compatible store (AWS S3, MinIO, Ceph, OSS/COS in S3 mode) over plain HTTP(S) with
 * Signature V4. Five object calls are all the portal needs, so it carries no SDK: bodies stream
 * through node:http with a known length, and uploads are signed with the content's SHA-256,
 * which makes the store itself reject bytes that changed on the way.
 */
export function createS3Storage(config: Omit<S3StorageConfig, 'driver'>, now: () => Date = () => new Date()): Storage {
  const endpoint = new URL(config.endpoint);
  const secure = endpoint.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 64 }) : new http.Agent({ keepAlive: true, maxSockets: 64 });
  const basePath = endpoint.pathname.replace(/\/+$/, '');
  const host = config.forcePathStyle ? endpoint.host : `${config.bucket}.${endpoint.host}`;
  const keys = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, region: config.region };

  function pathOf(key: string): string {
    assertStorageKey(key);
    const objectPath = `${config.keyPrefix}${key}`.split('/').map(encodeKeySegment).join('/');
    return config.forcePathStyle ? `${basePath}/${encodeKeySegment(config.bucket)}/${objectPath}` : `${basePath}/${objectPath}`;
  }

  function send(
    method: string,
    key: string,
    options: { headers?: Record<string, string>; payloadHash?: string; body?: Readable } = {},
  ): Promise<IncomingMessage> {
    const path = pathOf(key);
    const headers = signS3Request(keys, {
      method,
      path,
      headers: { host, ...options.headers },
      payloadHash: options.payloadHash ?? EMPTY_SHA256,
      now: now(),
    });
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(
        { protocol: endpoint.protocol, hostname: endpoint.hostname, port: endpoint.port || undefined, method, path, headers, agent },
        resolve,
      );
      req.setTimeout(SOCKET_IDLE_MS, () => req.destroy(new Error(`S3 ${method} timed out`)));
      req.on('error', reject);
      if (options.body) {
        options.body.on('error', (err) => req.destroy(err));
        options.body.pipe(req);
      } else {
        req.end();
      }
    });
  }

  async function failure(res: IncomingMessage, method: string): Promise<S3Error> {
    let text = '';
    for await (const chunk of res) {
      if (text.length < 4096) text += String(chunk);
    }
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? `HTTP${res.statusCode}`;
    return new S3Error(res.statusCode ?? 0, code, `S3 ${method} failed: ${res.statusCode} ${code}`);
  }

  async function withRetry<T>(attempt: () => Promise<T>): Promise<T> {
    let last: unknown;
    for (let i = 0; i < READ_ATTEMPTS; i++) {
      try {
        return await attempt();
      } catch (err) {
        last = err;
        if (err instanceof S3Error && err.statusCode < 500) throw err;
        await new Promise((r) => setTimeout(r, 100 * 2 ** i));
      }
    }
    throw last;
  }

  async function put(key: string, body: Readable, meta: PutMeta): Promise<void> {
    const counted = exactLength(meta.size);
    body.on('error', (err) => counted.destroy(err));
    body.pipe(counted);
    let res: IncomingMessage;
    try {
      res = await send('PUT', key, {
        headers: { 'content-length': String(meta.size), 'content-type': meta.contentType },
        payloadHash: meta.sha256,
        body: counted,
      });
    } catch (err) {
      await removeLeftover(key);
      throw err;
    }
    if (res.statusCode !== 200) {
      body.destroy();
      const error = await failure(res, 'PUT');
      await removeLeftover(key);
      throw error;
    }
    res.resume();
  }

  /**
   * S3 itself never keeps an aborted PUT, but some compatible stores write the object as the
   * bytes arrive (s3rver does) and leave a truncated one behind. Keys are new for every stored
   * file, so deleting one after a failed put cannot touch anything that was stored before.
   */
  async function removeLeftover(key: string): Promise<void> {
    // Such a store may still be opening the object when the aborted request reaches it: look
    // again after a moment, and delete what shows up.
    for (let attempt = 0; attempt < LEFTOVER_CHECKS; attempt++) {
      try {
        (await send('DELETE', key)).resume();
        await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
        const res = await send('HEAD', key);
        res.resume();
        if (res.statusCode === 404) return;
      } catch {
        // Best effort: the put has failed either way, and that is what the caller hears.
        return;
      }
    }
  }

  return {
    kind: 's3',
    put,

    async putFile(key, path, meta) {
      await put(key, createReadStream(path), meta);
      await unlink(path).catch(() => {});
    },

    get(key, range?: ByteRange) {
      return withRetry(async () => {
        const res = await send('GET', key, { headers: range ? { range: `bytes=${range.start}-${range.end}` } : {} });
        if (res.statusCode === 404) {
          res.resume();
          return null;
        }
        if (res.statusCode !== 200 && res.statusCode !== 206) throw await failure(res, 'GET');
        return res;
      });
    },

    head(key) {
      return withRetry(async () => {
        const res = await send('HEAD', key);
        res.resume();
        if (res.statusCode === 404) return null;
        if (res.statusCode !== 200) throw new S3Error(res.statusCode ?? 0, `HTTP${res.statusCode}`, `S3 HEAD failed: ${res.statusCode}`);
        return { size: Number(res.headers['content-length'] ?? 0) };
      });
    },

    delete(key) {
      return withRetry(async () => {
        const res = await send('DELETE', key);
        if (res.statusCode !== 204 && res.statusCode !== 200 && res.statusCode !== 404) throw await failure(res, 'DELETE');
        res.resume();
      });
    },
  };
}
