import { createHash, createHmac } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * A small S3-compatible store for the direct-upload tests (docs/decisions.md, "A verifying S3
 * store for direct-upload tests"), in memory, path-style, one bucket. Unlike s3rver it checks
 * what a real store checks of a browser's part upload: the SigV4 signature (header or presigned
 * query, with expiry) over the signed headers, the payload hash when one is signed, and the
 * part's x-amz-checksum-sha256 against its bytes (400 BadDigest); it implements ListParts
 * (with each part's ChecksumSHA256), CompleteMultipartUpload and AbortMultipartUpload.
 * Objects: PUT, GET (Range), HEAD, DELETE.
 *
 * Bodies are kept in memory (Buffers, what the tests read), or with `directory` in files there
 * (`OnDisk`: a part streams to a file of its own while it is hashed, a completed object is its
 * parts' files in order, nothing is copied), for loads larger than memory (the deadline rush's
 * 1,000 x 20 MB, bench/deadline-rush.bench.ts). The directory is the caller's to remove.
 */
export interface VerifyingS3<Body = Buffer> {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Stored objects by key (the bucket's keys, prefix included). */
  objects: Map<string, Body>;
  /** Multipart uploads not completed or aborted, by upload id. */
  uploads: Map<string, { key: string; parts: Map<number, { body: Body; etag: string; sha256: string | null }> }>;
  /** Requests refused, with their S3 error code. */
  refusals: string[];
  /** When set, every request waits for what it returns before it is handled (a slow store). */
  delay: ((req: IncomingMessage) => Promise<void> | undefined) | null;
  close(): Promise<void>;
}

/** A body kept on disk: its bytes are the files' in order. */
export interface OnDisk {
  files: Array<{ path: string; length: number }>;
  length: number;
}

/** How bodies are received (hashed on the way), joined, sent back and dropped. */
interface Bodies<Body> {
  take(req: IncomingMessage): Promise<{ body: Body; sha256: Buffer; md5: Buffer }>;
  length(body: Body): number;
  join(parts: Body[]): Body;
  /** Ends `res` with bytes start..end (inclusive) of the body. */
  send(body: Body, res: ServerResponse, start: number, end: number): void;
  drop(body: Body): Promise<void>;
}

const inMemory: Bodies<Buffer> = {
  async take(req) {
    const body = await bodyOf(req);
    return { body, sha256: createHash('sha256').update(body).digest(), md5: createHash('md5').update(body).digest() };
  },
  length: (body) => body.length,
  join: (parts) => Buffer.concat(parts),
  send: (body, res, start, end) => void res.end(body.subarray(start, end + 1)),
  drop: async () => {},
};

function onDisk(directory: string): Bodies<OnDisk> {
  let next = 0;
  return {
    async take(req) {
      const file = join(directory, `body-${++next}`);
      const sha256 = createHash('sha256');
      const md5 = createHash('md5');
      let length = 0;
      const written = pipeline(
        req,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            sha256.update(chunk);
            md5.update(chunk);
            length += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(file),
      );
      // A body cut off leaves no file behind.
      await written.catch(async (err: unknown) => {
        await unlink(file).catch(() => {});
        throw err;
      });
      return { body: { files: [{ path: file, length }], length }, sha256: sha256.digest(), md5: md5.digest() };
    },
    length: (body) => body.length,
    join: (parts) => ({ files: parts.flatMap((p) => p.files), length: parts.reduce((n, p) => n + p.length, 0) }),
    send(body, res, start, end) {
      // One file after the other, each from where the range starts in it.
      void (async () => {
        let offset = 0;
        for (const file of body.files) {
          const from = Math.max(start - offset, 0);
          const to = Math.min(end - offset, file.length - 1);
          if (from <= to) await pipeline(createReadStream(file.path, { start: from, end: to }), res, { end: false });
          offset += file.length;
          if (offset > end) break;
        }
        res.end();
      })().catch(() => res.destroy());
    },
    async drop(body) {
      await Promise.all(body.files.map((f) => unlink(f.path).catch(() => {})));
    },
  };
}

const REGION = 'us-east-1';
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
/** RFC 3986 encoding as SigV4 wants it. */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const xmlUnescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

function signature(secret: string, date: string, scope: string, amzDate: string, canonicalRequest: string): string {
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), REGION), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

function canonicalQuery(params: Array<[string, string]>): string {
  return params
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Throws 403 unless the request carries a valid SigV4 signature of `accessKeyId`; returns the signed payload hash. */
function verifyAuth(req: IncomingMessage, url: URL, accessKeyId: string, secret: string): string {
  const rawPath = (req.url ?? '/').split('?')[0]!;
  const params = [...url.searchParams.entries()];
  const header = (name: string) => {
    const value = req.headers[name];
    return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
  };
  let credential: string;
  let signedHeaders: string;
  let given: string;
  let amzDate: string;
  let payloadHash: string;
  let query: Array<[string, string]>;
  const presigned = url.searchParams.get('X-Amz-Signature');
  if (presigned !== null) {
    credential = url.searchParams.get('X-Amz-Credential') ?? '';
    signedHeaders = url.searchParams.get('X-Amz-SignedHeaders') ?? '';
    amzDate = url.searchParams.get('X-Amz-Date') ?? '';
    given = presigned;
    payloadHash = url.searchParams.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    const expires = Number(url.searchParams.get('X-Amz-Expires'));
    const at = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    if (!Number.isFinite(at) || !(expires > 0) || Date.now() > at + expires * 1000) throw new S3Failure(403, 'AccessDenied');
    query = params.filter(([k]) => k !== 'X-Amz-Signature');
  } else {
    const auth = header('authorization');
    const m = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(auth);
    if (!m) throw new S3Failure(403, 'AccessDenied');
    [, credential, signedHeaders, given] = m as unknown as [string, string, string, string];
    amzDate = header('x-amz-date');
    payloadHash = header('x-amz-content-sha256');
    if (!payloadHash) throw new S3Failure(400, 'InvalidRequest');
    query = params;
  }
  const [key, date, region, service, terminal] = credential.split('/');
  if (key !== accessKeyId || region !== REGION || service !== 's3' || terminal !== 'aws4_request' || !amzDate.startsWith(date ?? '-')) {
    throw new S3Failure(403, 'InvalidAccessKeyId');
  }
  const names = signedHeaders.split(';');
  if (!names.includes('host')) throw new S3Failure(403, 'AccessDenied');
  const canonicalRequest = [
    req.method,
    rawPath,
    canonicalQuery(query),
    names.map((n) => `${n}:${header(n)}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const expected = signature(secret, date!, `${date}/${REGION}/s3/aws4_request`, amzDate, canonicalRequest);
  if (expected !== given) throw new S3Failure(403, 'SignatureDoesNotMatch');
  return payloadHash;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface VerifyingS3Options {
  bucket?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Keeps bodies in files in this directory instead of memory (the caller removes it). */
  directory?: string;
  /** Listens on this port (default: a free one). */
  port?: number;
}

export function startVerifyingS3(options?: VerifyingS3Options & { directory?: undefined }): Promise<VerifyingS3>;
export function startVerifyingS3(options: VerifyingS3Options & { directory: string }): Promise<VerifyingS3<OnDisk>>;
export function startVerifyingS3(options: VerifyingS3Options = {}): Promise<VerifyingS3<Buffer> | VerifyingS3<OnDisk>> {
  return options.directory === undefined ? startWith(options, inMemory) : startWith(options, onDisk(options.directory));
}

async function startWith<Body>(options: VerifyingS3Options, bodies: Bodies<Body>): Promise<VerifyingS3<Body>> {
  const bucket = options.bucket ?? 'contest-files';
  const accessKeyId = options.accessKeyId ?? 'TESTKEY';
  const secretAccessKey = options.secretAccessKey ?? 'test-secret-key';
  const objects = new Map<string, Body>();
  const uploads: VerifyingS3<Body>['uploads'] = new Map();
  const refusals: string[] = [];
  let nextUpload = 1;

  const send = (res: ServerResponse, status: number, xml?: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...(xml ? { 'content-type': 'application/xml' } : {}), ...headers });
    res.end(xml ? `<?xml version="1.0" encoding="UTF-8"?>${xml}` : undefined);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://store');
    const payloadHash = verifyAuth(req, url, accessKeyId, secretAccessKey);
    const [, bucketName, ...rest] = url.pathname.split('/');
    if (bucketName !== bucket) throw new S3Failure(404, 'NoSuchBucket');
    const key = rest.map(decodeURIComponent).join('/');
    const q = url.searchParams;
    // A PUT's body goes to the store as it comes (hashed on the way); a POST's is a small XML document.
    const put = req.method === 'PUT' ? await bodies.take(req) : null;
    const body = req.method === 'POST' ? await bodyOf(req) : Buffer.alloc(0);
    const bodySha256 = put ? put.sha256 : createHash('sha256').update(body).digest();
    if (/^[0-9a-f]{64}$/.test(payloadHash) && bodySha256.toString('hex') !== payloadHash) {
      if (put) await bodies.drop(put.body);
      throw new S3Failure(400, 'XAmzContentSHA256Mismatch');
    }
    /** Refuses a PUT, its stored body dropped. */
    const refusePut = async (failure: S3Failure) => {
      if (put) await bodies.drop(put.body);
      return failure;
    };
    const uploadOf = (id: string | null) => {
      const upload = id ? uploads.get(id) : undefined;
      if (!upload || upload.key !== key) throw new S3Failure(404, 'NoSuchUpload');
      return upload;
    };

    if (req.method === 'POST' && q.has('uploads')) {
      const id = `upload-${nextUpload++}`;
      uploads.set(id, { key, parts: new Map() });
      return send(res, 200, `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
    }
    if (req.method === 'PUT' && q.has('uploadId')) {
      const upload = uploads.get(q.get('uploadId') ?? '');
      if (!upload || upload.key !== key) throw await refusePut(new S3Failure(404, 'NoSuchUpload'));
      const partNumber = Number(q.get('partNumber'));
      if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) throw await refusePut(new S3Failure(400, 'InvalidArgument'));
      const declared = req.headers['x-amz-checksum-sha256'];
      const sha256 = put!.sha256.toString('base64');
      if (typeof declared === 'string' && declared !== sha256) throw await refusePut(new S3Failure(400, 'BadDigest'));
      const etag = `"${put!.md5.toString('hex')}"`;
      const replaced = upload.parts.get(partNumber);
      upload.parts.set(partNumber, { body: put!.body, etag, sha256: typeof declared === 'string' ? sha256 : null });
      if (replaced) await bodies.drop(replaced.body);
      return send(res, 200, undefined, { etag, ...(typeof declared === 'string' ? { 'x-amz-checksum-sha256': sha256 } : {}) });
    }
    if (req.method === 'GET' && q.has('uploadId')) {
      const upload = uploadOf(q.get('uploadId'));
      const marker = Number(q.get('part-number-marker') ?? 0);
      const max = Math.min(Number(q.get('max-parts') ?? 1000), 1000);
      const numbers = [...upload.parts.keys()].filter((n) => n > marker).sort((a, b) => a - b);
      const page = numbers.slice(0, max);
      const truncated = numbers.length > page.length;
      const parts = page
        .map((n) => {
          const p = upload.parts.get(n)!;
          return `<Part><PartNumber>${n}</PartNumber><LastModified>${new Date().toISOString()}</LastModified><ETag>${xmlEscape(p.etag)}</ETag><Size>${bodies.length(p.body)}</Size>${p.sha256 ? `<ChecksumSHA256>${p.sha256}</ChecksumSHA256>` : ''}</Part>`;
        })
        .join('');
      return send(
        res,
        200,
        `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${q.get('uploadId')}</UploadId><PartNumberMarker>${marker}</PartNumberMarker>` +
          `<NextPartNumberMarker>${page.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>${max}</MaxParts><IsTruncated>${truncated}</IsTruncated>${parts}</ListPartsResult>`,
      );
    }
    if (req.method === 'POST' && q.has('uploadId')) {
      const upload = uploadOf(q.get('uploadId'));
      const listed = [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
        partNumber: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1]!)?.[1]),
        etag: xmlUnescape(/<ETag>([\s\S]*?)<\/ETag>/.exec(m[1]!)?.[1] ?? ''),
        sha256: /<ChecksumSHA256>([\s\S]*?)<\/ChecksumSHA256>/.exec(m[1]!)?.[1] ?? null,
      }));
      if (!listed.length) throw new S3Failure(400, 'MalformedXML');
      const listedBodies: Body[] = [];
      let previous = 0;
      for (const [i, item] of listed.entries()) {
        const part = upload.parts.get(item.partNumber);
        if (item.partNumber <= previous) throw new S3Failure(400, 'InvalidPartOrder');
        previous = item.partNumber;
        if (!part || part.etag.replace(/"/g, '') !== item.etag.replace(/"/g, '')) throw new S3Failure(400, 'InvalidPart');
        if (item.sha256 !== null && item.sha256 !== part.sha256) throw new S3Failure(400, 'InvalidPart');
        if (i < listed.length - 1 && bodies.length(part.body) < 5 * 1024 * 1024) throw new S3Failure(400, 'EntityTooSmall');
        listedBodies.push(part.body);
      }
      // As S3's: the MD5 of the parts' MD5s, then their count.
      const etag = `"${createHash('md5')
        .update(Buffer.concat(listed.map((item) => Buffer.from(upload.parts.get(item.partNumber)!.etag.replace(/"/g, ''), 'hex'))))
        .digest('hex')}-${listed.length}"`;
      const replaced = objects.get(key);
      objects.set(key, bodies.join(listedBodies));
      uploads.delete(q.get('uploadId')!);
      // Parts sent but not listed are not part of the object.
      const kept = new Set(listed.map((item) => item.partNumber));
      for (const [n, part] of upload.parts) if (!kept.has(n)) await bodies.drop(part.body);
      if (replaced !== undefined) await bodies.drop(replaced);
      return send(res, 200, `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></CompleteMultipartUploadResult>`);
    }
    if (req.method === 'DELETE' && q.has('uploadId')) {
      const upload = uploadOf(q.get('uploadId'));
      uploads.delete(q.get('uploadId')!);
      for (const part of upload.parts.values()) await bodies.drop(part.body);
      return send(res, 204);
    }
    if (req.method === 'PUT') {
      const replaced = objects.get(key);
      objects.set(key, put!.body);
      if (replaced !== undefined) await bodies.drop(replaced);
      return send(res, 200, undefined, { etag: `"${put!.md5.toString('hex')}"` });
    }
    if (req.method === 'DELETE') {
      const removed = objects.get(key);
      objects.delete(key);
      if (removed !== undefined) await bodies.drop(removed);
      return send(res, 204);
    }
    const object = objects.get(key);
    if (object === undefined) throw new S3Failure(404, 'NoSuchKey');
    const length = bodies.length(object);
    if (req.method === 'HEAD') return send(res, 200, undefined, { 'content-length': String(length) });
    if (req.method === 'GET') {
      const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
      if (range) {
        const start = Number(range[1]);
        const end = Math.min(range[2] ? Number(range[2]) : length - 1, length - 1);
        res.writeHead(206, { 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${length}` });
        return bodies.send(object, res, start, end);
      }
      res.writeHead(200, { 'content-length': String(length) });
      return bodies.send(object, res, 0, length - 1);
    }
    throw new S3Failure(405, 'MethodNotAllowed');
  }

  const store = { delay: null as VerifyingS3['delay'] };
  const server: Server = createServer((req, res) => {
    Promise.resolve(store.delay?.(req))
      .then(() => handle(req, res))
      .catch((err: unknown) => {
      const failure = err instanceof S3Failure ? err : new S3Failure(500, 'InternalError');
      refusals.push(failure.code);
      // The rest of a refused body is read and dropped, so the client reads the answer.
      req.resume();
      if (!res.headersSent) send(res, failure.status, req.method === 'HEAD' ? undefined : `<Error><Code>${failure.code}</Code><Message>${failure.code}</Message></Error>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    uploads,
    refusals,
    get delay() {
      return store.delay;
    },
    set delay(hook) {
      store.delay = hook;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
