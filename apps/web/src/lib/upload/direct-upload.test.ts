/**
 * Direct upload to the store (docs/uploader.md, "Direct upload"), end to end through the real
 * transport: the API client with a fake server behind its adapter, and the store's PUTs through
 * a fake XMLHttpRequest that checks each part's signed checksum as S3 does.
 */
import { createHash } from 'node:crypto';
import type { AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { participantClientOver } from '../../test/fake-client';
import { DIRECT_UPLOAD_REASONS, UPLOAD_RESTART_REASON, type DirectPartLink } from '@contest/shared';
import { isCancel } from '../../api';
import { ResumeRegistry } from './resume-registry';
import { createUploadTransport, putPartWithXhr } from './upload-api';
import { UploadQueue } from './upload-queue';
import type { StoredFile, UploadEntry, UploadTransport } from './upload-types';

const PART = 4;
const STORE = 'https://store.example.test';

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sha256Base64 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

interface Upload {
  id: string;
  name: string;
  size: number;
  chunks: number;
  sha256: string;
  signed: Map<number, string>;
  parts: Map<number, Uint8Array>;
  stored: StoredFile | null;
}

interface Put {
  chunk: number;
  url: string;
  headers: Record<string, string>;
  bytes: Uint8Array;
}

type StoreAnswer = { status: number; body?: string; headers?: Record<string, string> };

/** The portal's direct-upload calls and the store's part PUTs, in memory. */
function fakeNet(options: { offered?: boolean } = {}) {
  let offered = options.offered ?? true;
  // The answer to "is direct upload offered?" fails (a server fault): the start decides instead.
  let askFails = false;
  let next = 0;
  const uploads = new Map<string, Upload>();
  const calls: { method: string; url: string; body: unknown; auth: string | undefined }[] = [];
  const puts: Put[] = [];
  const pieces: { id: string; chunk: number; chunks: number; name: string }[] = [];
  /** The store's answer to a PUT before it checks anything (a failure the test wants); null: the real answer. */
  let storeFault: (put: Put) => StoreAnswer | null = () => null;
  /** What completion reports missing although the store holds it (a part lost), once per chunk listed. */
  const lose = new Set<number>();
  /** Status refusals by upload id (a dropped upload). */
  const dropped = new Set<string>();
  let signTtlMs = 300_000;

  const envelope = (data: unknown) => ({ status: 200, code: 'OK', message: '', data });
  const refusal = (message: string, data: unknown) => ({ status: 400, code: 'BAD_REQUEST', message, data });
  const receivedOf = (u: Upload) => [...u.parts.keys()].sort((a, b) => a - b);

  function handle(method: string, url: string, body: unknown): unknown {
    const direct = /^\/attachment\/direct\/([^/]+)(\/parts|\/complete)?$/.exec(url);
    if (method === 'get' && url === '/attachment/direct') {
      return askFails ? { status: 500, code: 'INTERNAL', message: '服务器开小差了，请稍后再试', data: null } : envelope({ offered });
    }
    if (url.startsWith('/attachment/direct') && !offered) {
      return refusal('当前存储不支持直传，请使用分片上传', { reason: DIRECT_UPLOAD_REASONS.unavailable });
    }
    if (method === 'post' && url === '/attachment/direct/start') {
      const input = body as { name: string; size: number; sha256: string; origin: string };
      if (input.size > 1000) return refusal('大小超限', null);
      const id = `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
      const chunks = Math.max(1, Math.ceil(input.size / PART));
      uploads.set(id, { id, name: input.name, size: input.size, chunks, sha256: input.sha256, signed: new Map(), parts: new Map(), stored: null });
      return envelope({ complete: false, id, chunks, received: [], filePath: null });
    }
    if (direct && direct[1] !== 'start') {
      const upload = uploads.get(direct[1]!);
      if (!upload) return { status: 404, code: 'NOT_FOUND', message: '资源不存在', data: null };
      if (dropped.has(upload.id)) return refusal('上传中断，请重新上传该文件', { reason: UPLOAD_RESTART_REASON });
      if (method === 'post' && direct[2] === '/parts') {
        const links: DirectPartLink[] = (body as { parts: { chunk: number; sha256: string }[] }).parts.map((p) => {
          upload.signed.set(p.chunk, p.sha256);
          return {
            chunk: p.chunk,
            url: `${STORE}/${upload.id}/${p.chunk + 1}?sig=${++next}`,
            headers: { 'x-amz-checksum-sha256': p.sha256 },
            expiresAt: Date.now() + signTtlMs,
          };
        });
        return envelope({ parts: links });
      }
      if (method === 'get' && !direct[2]) {
        if (upload.stored) return envelope({ complete: true, id: upload.id, chunks: upload.chunks, received: receivedOf(upload), uniqueNo: upload.stored.id, name: upload.name, size: upload.size, filePath: upload.stored.filePath });
        return envelope({ complete: false, id: upload.id, chunks: upload.chunks, received: receivedOf(upload), filePath: null });
      }
      if (method === 'post' && direct[2] === '/complete') {
        for (const chunk of lose) upload.parts.delete(chunk);
        lose.clear();
        if (upload.parts.size < upload.chunks) {
          return refusal('文件尚未上传完整，请继续上传', { reason: DIRECT_UPLOAD_REASONS.partsMissing, received: receivedOf(upload), chunks: upload.chunks });
        }
        const whole = new Uint8Array(upload.size);
        for (const [chunk, bytes] of upload.parts) whole.set(bytes, chunk * PART);
        if (sha256Hex(whole) !== upload.sha256) return refusal('分片校验失败，请重新上传该文件', null);
        upload.stored ??= { id: `U-${upload.name}`, filePath: `/api/attachment/stream/U-${upload.name}`, fileName: upload.name, fileSize: upload.size };
        const { id, filePath } = upload.stored;
        return envelope({ complete: true, id: upload.id, chunks: upload.chunks, received: receivedOf(upload), uniqueNo: id, name: upload.name, extension: 'pdf', size: upload.size, mimeType: 'application/pdf', isPublic: false, filePath });
      }
    }
    return { status: 404, code: 'NOT_FOUND', message: `no route ${method} ${url}`, data: null };
  }

  /** The store: checks each PUT against its link's signed checksum (S3's BadDigest), then keeps the part. */
  function storePut(put: Put): StoreAnswer {
    puts.push(put);
    const fault = storeFault(put);
    if (fault) return fault;
    const [, id, partNumber] = /^https:\/\/store\.example\.test\/([^/]+)\/(\d+)\?/.exec(put.url) ?? [];
    const upload = uploads.get(id ?? '');
    if (!upload) return { status: 404 };
    const chunk = Number(partNumber) - 1;
    if (put.headers['x-amz-checksum-sha256'] !== upload.signed.get(chunk)) return { status: 403, body: 'SignatureDoesNotMatch' };
    if (sha256Base64(put.bytes) !== put.headers['x-amz-checksum-sha256']) return { status: 400, body: 'BadDigest' };
    upload.parts.set(chunk, put.bytes);
    return { status: 200, headers: { ETag: '"e"' } };
  }

  /** XMLHttpRequest as the browser has it, answered by the fake store. */
  class FakeXhr {
    status = 0;
    responseText = '';
    private url = '';
    private readonly headers: Record<string, string> = {};
    private answerHeaders: Record<string, string> = {};
    private aborted = false;
    readonly upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;

    open(method: string, url: string): void {
      expect(method).toBe('PUT');
      this.url = url;
    }

    setRequestHeader(name: string, value: string): void {
      this.headers[name.toLowerCase()] = value;
    }

    getResponseHeader(name: string): string | null {
      return this.answerHeaders[name] ?? null;
    }

    abort(): void {
      this.aborted = true;
      this.onabort?.();
    }

    send(body: Blob): void {
      void body.arrayBuffer().then((buffer) => {
        if (this.aborted) return;
        const bytes = new Uint8Array(buffer);
        this.upload.onprogress?.({ lengthComputable: true, loaded: bytes.length / 2, total: bytes.length });
        const chunk = Number(/\/(\d+)\?/.exec(this.url)?.[1]) - 1;
        const answer = storePut({ chunk, url: this.url, headers: { ...this.headers }, bytes });
        if (answer.status === 0) {
          this.onerror?.();
          return;
        }
        this.upload.onprogress?.({ lengthComputable: true, loaded: bytes.length, total: bytes.length });
        this.status = answer.status;
        this.responseText = answer.body ?? '';
        this.answerHeaders = answer.headers ?? {};
        this.onload?.();
      });
    }
  }

  const { client, ui } = participantClientOver(async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
      const method = config.method ?? 'get';
      const url = config.url ?? '';
      const body: unknown = typeof config.data === 'string' ? JSON.parse(config.data) : config.data;
      const auth = config.headers.Authorization;
      calls.push({ method, url, body, auth: typeof auth === 'string' ? auth : undefined });
      if (url === '/attachment/piece/upload') {
        const p = config.params as { id: string; chunk: string; chunks: string; name: string };
        pieces.push({ id: p.id, chunk: Number(p.chunk), chunks: Number(p.chunks), name: p.name });
        const got = pieces.filter((x) => x.id === p.id).length;
        const data =
          got >= Number(p.chunks)
            ? { complete: true, id: p.id, uniqueNo: `P-${p.name}`, name: p.name, size: 10, filePath: `/api/attachment/stream/P-${p.name}` }
            : { complete: false, id: p.id, filePath: null, received: [] };
        return { data: envelope(data), status: 200, statusText: 'OK', headers: {}, config, request: {} };
      }
      const data = handle(method, url, body);
      return { data, status: (data as { status: number }).status, statusText: '', headers: {}, config, request: {} };
  });
  const notify = vi.fn();
  const transport = createUploadTransport(client, { direct: true, notify });
  return {
    transport,
    uploads,
    calls,
    puts,
    pieces,
    ui,
    notify,
    FakeXhr,
    lose,
    dropped,
    failAsk: () => {
      askFails = true;
    },
    setOffered: (value: boolean) => {
      offered = value;
    },
    setStoreFault: (fault: (put: Put) => StoreAnswer | null) => {
      storeFault = fault;
    },
    setSignTtl: (ms: number) => {
      signTtlMs = ms;
    },
    /** Portal calls to direct paths (method and path). */
    directCalls: () => calls.filter((c) => c.url.startsWith('/attachment/direct')).map((c) => `${c.method} ${c.url.replace(/[0-9a-f-]{36}/, ':id')}`),
  };
}

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

const bytesOf = (size: number, seed = 1) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);
const fileOf = (name: string, bytes: Uint8Array<ArrayBuffer>) => new File([bytes], name, { lastModified: 7 });

function makeQueue(transport: UploadTransport, extra: { resume?: ResumeRegistry | null; sleeps?: number[] } = {}) {
  const uploaded: { entry: UploadEntry; stored: StoredFile }[] = [];
  const percents: number[] = [];
  const queue = new UploadQueue({
    transport,
    origin: 'PRELIM',
    accept: null,
    valueCount: () => uploaded.length,
    onUploaded: (entry, stored) => uploaded.push({ entry, stored }),
    resume: extra.resume ?? null,
    pieceSize: PART,
    signBatch: 2,
    slowStartPieces: Infinity,
    sleep: async (ms) => {
      extra.sleeps?.push(ms);
    },
    random: () => 0,
  });
  queue.subscribe(() => {
    const entry = queue.entries()[0];
    if (entry?.status === 'uploading') percents.push(entry.percent);
  });
  const statusOf = (name: string) => queue.entries().find((e) => e.fileName === name)?.status;
  const settled = (name: string) => vi.waitFor(() => expect(statusOf(name) === undefined || statusOf(name)!.startsWith('error_')).toBe(true));
  return { queue, uploaded, percents, statusOf, settled };
}

describe('direct upload to the store', () => {
  let net: ReturnType<typeof fakeNet>;
  beforeEach(() => {
    net = fakeNet();
    vi.stubGlobal('XMLHttpRequest', net.FakeXhr);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('starts with the file hash, PUTs each part with its signed checksum and no token, completes, and reaches 100%', async () => {
    const bytes = bytesOf(10);
    const resume = new ResumeRegistry(memoryStorage());
    const { queue, uploaded, percents, settled } = makeQueue(net.transport, { resume });
    queue.add([fileOf('方案.pdf', bytes)]);
    await settled('方案.pdf');

    expect(net.calls[0]).toMatchObject({ method: 'get', url: '/attachment/direct', auth: 'Bearer tok' });
    expect(net.calls[1]).toMatchObject({ method: 'post', url: '/attachment/direct/start', auth: 'Bearer tok' });
    expect(net.calls[1]!.body).toEqual({ origin: 'PRELIM', name: '方案.pdf', size: 10, sha256: sha256Hex(bytes) });
    // Asked once whether direct upload is offered; three parts, links two at a time, one completion.
    expect(net.directCalls()).toEqual([
      'get /attachment/direct',
      'post /attachment/direct/start',
      'post /attachment/direct/:id/parts',
      'post /attachment/direct/:id/parts',
      'post /attachment/direct/:id/complete',
    ]);
    const signed = net.calls.filter((c) => c.url.endsWith('/parts')).flatMap((c) => (c.body as { parts: { chunk: number; sha256: string }[] }).parts);
    expect(signed.sort((a, b) => a.chunk - b.chunk)).toEqual([0, 1, 2].map((chunk) => ({ chunk, sha256: sha256Base64(bytes.slice(chunk * PART, chunk * PART + PART)) })));
    expect(net.puts.map((p) => p.chunk).sort()).toEqual([0, 1, 2]);
    for (const put of net.puts) {
      // The store's link: its checksum header, nothing of the portal's session.
      expect(Object.keys(put.headers)).toEqual(['x-amz-checksum-sha256']);
      expect(put.bytes).toEqual(bytes.slice(put.chunk * PART, put.chunk * PART + PART));
    }

    expect(uploaded).toHaveLength(1);
    expect(uploaded[0]!.stored).toEqual({ id: 'U-方案.pdf', filePath: '/api/attachment/stream/U-方案.pdf', fileName: '方案.pdf', fileSize: 10 });
    expect(uploaded[0]!.entry).toMatchObject({ status: 'ok', percent: 100 });
    // Progress only goes up, held at 99 until the completion answered.
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(99);
    // Stored: nothing left to resume.
    expect(resume.direct('PRELIM|方案.pdf|10|7')).toBeNull();
    expect(net.ui.error).not.toHaveBeenCalled();
  });

  it('falls back to pieces, silently, when the store is the disk, and stays on pieces for the page load', async () => {
    net.setOffered(false);
    const { queue, uploaded, settled } = makeQueue(net.transport);
    queue.add([fileOf('a.pdf', bytesOf(10))]);
    await settled('a.pdf');
    expect(uploaded.map((u) => u.stored.id)).toEqual(['P-a.pdf']);
    expect(net.pieces.filter((p) => p.name === 'a.pdf').map((p) => p.chunk)).toEqual([0, 1, 2]);
    expect(net.ui.error).not.toHaveBeenCalled();
    expect(net.notify).not.toHaveBeenCalled();

    queue.add([fileOf('b.pdf', bytesOf(10))]);
    await settled('b.pdf');
    expect(uploaded.map((u) => u.stored.id)).toEqual(['P-a.pdf', 'P-b.pdf']);
    // Asked once, before any file was hashed or started: both went straight to pieces.
    expect(net.directCalls()).toEqual(['get /attachment/direct']);
  });

  it('when the question fails, the start decides: refused on a disk store, the file goes in pieces, silently', async () => {
    net.setOffered(false);
    net.failAsk();
    const { queue, uploaded, settled } = makeQueue(net.transport);
    queue.add([fileOf('a.pdf', bytesOf(10))]);
    await settled('a.pdf');
    expect(uploaded.map((u) => u.stored.id)).toEqual(['P-a.pdf']);
    expect(net.directCalls()).toEqual(['get /attachment/direct', 'post /attachment/direct/start']);
    expect(net.ui.error).not.toHaveBeenCalled();
    expect(net.notify).not.toHaveBeenCalled();
  });

  it('asks with the first of files picked together: on a disk store the others go to pieces without hashing', async () => {
    net.setOffered(false);
    const { queue, uploaded, settled } = makeQueue(net.transport);
    queue.add([fileOf('a.pdf', bytesOf(10)), fileOf('b.pdf', bytesOf(10, 3))]);
    await settled('a.pdf');
    await settled('b.pdf');
    expect(uploaded.map((u) => u.stored.id).sort()).toEqual(['P-a.pdf', 'P-b.pdf']);
    expect(net.directCalls()).toEqual(['get /attachment/direct']);

    // Where the store takes them, both go direct (after the first start answered).
    const other = fakeNet();
    vi.stubGlobal('XMLHttpRequest', other.FakeXhr);
    const second = makeQueue(other.transport);
    second.queue.add([fileOf('c.pdf', bytesOf(10)), fileOf('d.pdf', bytesOf(10, 3))]);
    await second.settled('c.pdf');
    await second.settled('d.pdf');
    expect(second.uploaded.map((u) => u.stored.id).sort()).toEqual(['U-c.pdf', 'U-d.pdf']);
    expect(other.directCalls().filter((c) => c.endsWith('/start'))).toHaveLength(2);
  });

  it('shows any other refusal of the start as the client would, and fails the file', async () => {
    const { queue, statusOf, settled } = makeQueue(net.transport);
    queue.add([fileOf('big.pdf', bytesOf(2000))]);
    await settled('big.pdf');
    expect(statusOf('big.pdf')).toBe('error_upload');
    expect(net.notify).toHaveBeenCalledWith('大小超限');
    expect(net.pieces).toHaveLength(0);
  });

  it('sends a part again after a 503 from the store, after the same wait as a busy piece', async () => {
    let failed = false;
    net.setStoreFault((put) => {
      if (put.chunk !== 1 || failed) return null;
      failed = true;
      return { status: 503, headers: { 'Retry-After': '3' } };
    });
    const sleeps: number[] = [];
    const { queue, uploaded, settled } = makeQueue(net.transport, { sleeps });
    queue.add([fileOf('v.mp4', bytesOf(10))]);
    await settled('v.mp4');
    expect(uploaded).toHaveLength(1);
    expect(net.puts.filter((p) => p.chunk === 1)).toHaveLength(2);
    expect(sleeps).toEqual([3000]);
    // A lost connection is waited out the same way.
    let dropped = false;
    net.setStoreFault((put) => {
      if (put.chunk !== 0 || dropped) return null;
      dropped = true;
      return { status: 0 };
    });
    queue.add([fileOf('w.mp4', bytesOf(10, 2))]);
    await settled('w.mp4');
    expect(uploaded).toHaveLength(2);
    expect(sleeps).toEqual([3000, 2000]);
  });

  it('takes a store no PUT of the page ever reached (CORS, CSP) as out of reach: pieces, for the page load', async () => {
    net.setStoreFault(() => ({ status: 0 }));
    const sleeps: number[] = [];
    const { queue, uploaded, settled } = makeQueue(net.transport, { sleeps });
    queue.add([fileOf('c.pdf', bytesOf(10))]);
    await settled('c.pdf');
    expect(uploaded.map((u) => u.stored.id)).toEqual(['P-c.pdf']);
    expect(net.pieces.map((p) => p.chunk)).toEqual([0, 1, 2]);
    expect(sleeps).toEqual([]);
    expect(net.transport.direct!.offered()).toBe(false);
    expect(net.ui.error).not.toHaveBeenCalled();
  });

  it('signs a part again when the store says its link expired', async () => {
    let expired = false;
    net.setStoreFault((put) => {
      if (put.chunk !== 2 || expired) return null;
      expired = true;
      return { status: 403, body: '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>' };
    });
    const { queue, uploaded, settled } = makeQueue(net.transport);
    queue.add([fileOf('x.pdf', bytesOf(10))]);
    await settled('x.pdf');
    expect(uploaded).toHaveLength(1);
    const signedChunks = net.calls.filter((c) => c.url.endsWith('/parts')).map((c) => (c.body as { parts: { chunk: number }[] }).parts.map((p) => p.chunk));
    // Asked for together with the other parts' links, then once more on its own.
    expect(signedChunks).toHaveLength(3);
    expect(signedChunks.flat().sort()).toEqual([0, 1, 2, 2]);
    expect(signedChunks.at(-1)).toEqual([2]);
  });

  it('resumes after a reload: asks the server what the store holds and sends only the missing parts', async () => {
    const storage = memoryStorage();
    const bytes = bytesOf(10);
    // The first page: part 2 keeps failing (the store refuses it), the file fails.
    net.setStoreFault((put) => (put.chunk === 2 ? { status: 400, body: 'InvalidRequest' } : null));
    const first = makeQueue(net.transport, { resume: new ResumeRegistry(storage) });
    first.queue.add([fileOf('r.pdf', bytes)]);
    await first.settled('r.pdf');
    expect(first.statusOf('r.pdf')).toBe('error_upload');
    const putsBefore = net.puts.length;
    const startsBefore = net.directCalls().filter((c) => c.endsWith('/start')).length;

    // A reload: a new queue, the same registry in localStorage, the same file picked again.
    net.setStoreFault(() => null);
    const second = makeQueue(net.transport, { resume: new ResumeRegistry(storage) });
    second.queue.add([fileOf('r.pdf', bytes)]);
    await second.settled('r.pdf');
    expect(second.uploaded).toHaveLength(1);
    expect(net.puts.slice(putsBefore).map((p) => p.chunk)).toEqual([2]);
    expect(net.directCalls().filter((c) => c.endsWith('/start'))).toHaveLength(startsBefore);
    expect(net.directCalls()).toContain('get /attachment/direct/:id');
  });

  it('starts over when the server dropped the upload it resumes (UPLOAD_RESTART)', async () => {
    const storage = memoryStorage();
    const bytes = bytesOf(10);
    net.setStoreFault((put) => (put.chunk === 2 ? { status: 400 } : null));
    const first = makeQueue(net.transport, { resume: new ResumeRegistry(storage) });
    first.queue.add([fileOf('s.pdf', bytes)]);
    await first.settled('s.pdf');
    const [oldId] = [...net.uploads.keys()];
    net.dropped.add(oldId!);
    net.setStoreFault(() => null);

    const second = makeQueue(net.transport, { resume: new ResumeRegistry(storage) });
    second.queue.add([fileOf('s.pdf', bytes)]);
    await second.settled('s.pdf');
    expect(second.uploaded).toHaveLength(1);
    expect(net.directCalls().filter((c) => c.endsWith('/start'))).toHaveLength(2);
    expect(net.ui.error).not.toHaveBeenCalled();
  });

  it('sends the parts completion finds missing (PARTS_MISSING), then completes again', async () => {
    net.lose.add(1);
    const { queue, uploaded, settled } = makeQueue(net.transport);
    queue.add([fileOf('m.pdf', bytesOf(10))]);
    await settled('m.pdf');
    expect(uploaded).toHaveLength(1);
    expect(net.puts.map((p) => p.chunk).sort()).toEqual([0, 1, 1, 2]);
    expect(net.directCalls().filter((c) => c.endsWith('/complete'))).toHaveLength(2);
    // Handled, not shown.
    expect(net.notify).not.toHaveBeenCalled();
    expect(net.ui.error).not.toHaveBeenCalled();
  });

  it('sends only the headers a page may set (the browser adds host and length), and aborts with the run', async () => {
    const link: DirectPartLink = {
      chunk: 0,
      url: `${STORE}/none/1?sig=1`,
      headers: { Host: 'store.example.test', 'Content-Length': '4', 'x-amz-checksum-sha256': 'abc' },
      expiresAt: Date.now() + 60_000,
    };
    const progress: number[] = [];
    const options = { signal: new AbortController().signal, onProgress: (f: number) => progress.push(f) };
    await expect(putPartWithXhr(link, new Blob(['abcd']), options)).rejects.toMatchObject({ status: 404 });
    expect(net.puts[0]!.headers).toEqual({ 'x-amz-checksum-sha256': 'abc' });
    expect(progress).toEqual([0.5, 1]);

    const controller = new AbortController();
    const put = putPartWithXhr(link, new Blob(['abcd']), { signal: controller.signal, onProgress: () => {} });
    controller.abort();
    expect(isCancel(await put.catch((err: unknown) => err))).toBe(true);
  });
});
