import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { Transform, type Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3StorageConfig } from '../../config/config.js';
import { contentDisposition } from '../content-disposition.js';
import { assertStorageKey, type ByteRange, type MultipartStore, type PresignGetOptions, type PutMeta, type Storage, type StoredPart } from './storage.js';

// A stalled store must not hold requests forever; large bodies keep the socket busy, so this
// bounds silence, not total time.
const SOCKET_IDLE_MS = 30_000;
const CONNECT_MS = 10_000;
/**
 * Multipart upload: parts of 8 MB, three in flight. A 500 MB video is 63 parts and holds at most
 * about 4 parts in memory at once (three being sent, one being filled), never the whole file.
 */
export const S3_PART_SIZE = 8 * 1024 * 1024;
const S3_QUEUE_SIZE = 3;
/** Presigned links when the caller names no expiry. */
const DEFAULT_PRESIGN_SECONDS = 300;

export class S3Error extends Error {
  override name = 'S3Error';
  constructor(
    readonly statusCode: number,
    readonly s3Code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Passes the body through while checking it against what the caller declared: exactly `size`
 * bytes whose SHA-256 is `sha256`. The check runs in flush, before the stream ends, so the
 * uploader never sees the end of a wrong body and never completes it (see put below).
 */
function verified(meta: PutMeta): Transform {
  let seen = 0;
  const digest = createHash('sha256');
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > meta.size) return done(new Error(`body longer than ${meta.size} bytes`));
      digest.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      if (seen !== meta.size) return done(new Error(`body of ${seen} bytes, expected ${meta.size}`));
      const actual = digest.digest('hex');
      done(actual === meta.sha256.toLowerCase() ? null : new Error(`body SHA-256 ${actual}, expected ${meta.sha256}`));
    },
  });
}

/** The HTTP status of an SDK failure (0 when the request never got an answer). */
const statusOf = (err: unknown): number => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;

/** SDK failures as S3Error with a short, loggable message ("S3 GET failed: 403 InvalidAccessKeyId"). */
function wrap(err: unknown, operation: string): Error {
  if (err instanceof S3ServiceException || statusOf(err) > 0) {
    const status = statusOf(err);
    const code = (err as Error).name || `HTTP${status}`;
    return new S3Error(status, code, `S3 ${operation} failed: ${status} ${code}`, { cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Any S3-compatible store (AWS S3, MinIO, Ceph, OSS/COS in S3 mode) through the AWS SDK v3.
 *
 * Integrity: the body is hashed while it streams and must match the declared size and SHA-256
 * before the upload is completed (a mismatch aborts the multipart upload, so nothing is kept).
 * Every part (or the single PutObject of a small file) is sent as a buffer whose SHA-256 the SDK
 * signs (`x-amz-content-sha256`, SigV4), so the store itself rejects a part altered on the way.
 * Together: what the store keeps is exactly the declared content, as with the signed single PUT
 * this driver used before.
 *
 * The SDK's newer "flexible checksums" (CRC32 headers, aws-chunked bodies with trailers) are
 * asked for only where an operation requires them: several S3-compatible stores reject them.
 */
export function createS3Storage(config: Omit<S3StorageConfig, 'driver'>): Storage {
  const clientFor = (endpoint: string) =>
    new S3Client({
      endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Standard retries: transient failures (connection reset, 5xx, throttling) are tried again,
      // three attempts in all; parts are buffers, so uploads can be retried too.
      maxAttempts: 3,
      requestHandler: {
        httpAgent: new http.Agent({ keepAlive: true, maxSockets: 64 }),
        httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 64 }),
        connectionTimeout: CONNECT_MS,
        socketTimeout: SOCKET_IDLE_MS,
      },
    });
  const client = clientFor(config.endpoint);
  // Links are signed for the host the browser will send (S3_PUBLIC_ENDPOINT when the portal
  // reaches the store on an internal address); signing sends nothing, so this client stays idle.
  const presigner = config.publicEndpoint ? clientFor(config.publicEndpoint) : client;
  const presignSeconds = config.presignExpiresSeconds ?? DEFAULT_PRESIGN_SECONDS;

  function objectKey(key: string): string {
    assertStorageKey(key);
    return `${config.keyPrefix}${key}`;
  }

  async function put(key: string, body: Readable, meta: PutMeta): Promise<void> {
    const Key = objectKey(key);
    const checked = verified(meta);
    // The body's own failure (short, long, wrong hash, unreadable) is what the caller must hear,
    // not a failure of the abort that follows it (some stores lack AbortMultipartUpload).
    let bodyError: Error | undefined;
    checked.on('error', (err) => (bodyError ??= err));
    body.on('error', (err) => checked.destroy(err));
    body.pipe(checked);
    const upload = new Upload({
      client,
      params: { Bucket: config.bucket, Key, Body: checked, ContentType: meta.contentType, ContentLength: meta.size },
      partSize: S3_PART_SIZE,
      queueSize: S3_QUEUE_SIZE,
      // Parts of a failed upload are aborted (AbortMultipartUpload), so the bucket keeps nothing.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      checked.destroy();
      throw bodyError ?? wrap(err, 'PUT');
    }
  }

  // Direct uploads (docs/files.md, "Direct upload"): the checksum stays a signed header (not
  // hoisted into the query), so the browser must send it and the store checks the part against it.
  const multipart: MultipartStore = {
    async create(key, contentType) {
      try {
        const res = await client.send(
          new CreateMultipartUploadCommand({ Bucket: config.bucket, Key: objectKey(key), ContentType: contentType, ChecksumAlgorithm: 'SHA256' }),
        );
        if (!res.UploadId) throw new Error('S3 CreateMultipartUpload answered no UploadId');
        return res.UploadId;
      } catch (err) {
        throw wrap(err, 'CreateMultipartUpload');
      }
    },

    async presignPart(key, uploadId, partNumber, part) {
      const command = new UploadPartCommand({
        Bucket: config.bucket,
        Key: objectKey(key),
        UploadId: uploadId,
        PartNumber: partNumber,
        ChecksumSHA256: part.sha256,
        ContentLength: part.size,
      });
      const url = await getSignedUrl(presigner, command, {
        expiresIn: presignSeconds,
        unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
        signableHeaders: new Set(['content-length']),
      });
      return { url, headers: { 'x-amz-checksum-sha256': part.sha256 }, expiresAt: Date.now() + presignSeconds * 1000 };
    },

    async listParts(key, uploadId) {
      const parts: StoredPart[] = [];
      let marker: string | undefined;
      try {
        for (;;) {
          const res = await client.send(new ListPartsCommand({ Bucket: config.bucket, Key: objectKey(key), UploadId: uploadId, PartNumberMarker: marker }));
          for (const p of res.Parts ?? []) {
            parts.push({ partNumber: p.PartNumber ?? 0, size: p.Size ?? 0, etag: p.ETag ?? '', sha256: p.ChecksumSHA256 ?? null });
          }
          if (!res.IsTruncated || !res.NextPartNumberMarker) break;
          marker = res.NextPartNumberMarker;
        }
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw wrap(err, 'ListParts');
      }
      return parts.sort((a, b) => a.partNumber - b.partNumber);
    },

    async complete(key, uploadId, parts) {
      try {
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket: config.bucket,
            Key: objectKey(key),
            UploadId: uploadId,
            MultipartUpload: {
              Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag, ...(p.sha256 ? { ChecksumSHA256: p.sha256 } : {}) })),
            },
          }),
        );
      } catch (err) {
        throw wrap(err, 'CompleteMultipartUpload');
      }
    },

    async abort(key, uploadId) {
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket: config.bucket, Key: objectKey(key), UploadId: uploadId }));
      } catch (err) {
        if (statusOf(err) === 404) return;
        throw wrap(err, 'AbortMultipartUpload');
      }
    },
  };

  return {
    kind: 's3',
    put,
    multipart,

    async putFile(key, path, meta) {
      await put(key, createReadStream(path), meta);
      await unlink(path).catch(() => {});
    },

    async get(key, range?: ByteRange) {
      const Key = objectKey(key);
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket: config.bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        return res.Body as Readable;
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw wrap(err, 'GET');
      }
    },

    async head(key) {
      const Key = objectKey(key);
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key }));
        return { size: res.ContentLength ?? 0 };
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw wrap(err, 'HEAD');
      }
    },

    async delete(key) {
      const Key = objectKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key }));
      } catch (err) {
        if (statusOf(err) === 404) return;
        throw wrap(err, 'DELETE');
      }
    },

    async presignGet(key, options: PresignGetOptions = {}) {
      const Key = objectKey(key);
      const command = new GetObjectCommand({
        Bucket: config.bucket,
        Key,
        ResponseContentDisposition: options.filename === undefined ? undefined : contentDisposition(options.disposition ?? 'attachment', options.filename),
        ResponseContentType: options.contentType,
      });
      return getSignedUrl(presigner, command, { expiresIn: options.expiresInSeconds ?? presignSeconds });
    },
  };
}
