import type { AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { serializeParams } from '../../api';
import { participantClientOver } from '../../test/fake-client';
import { DEFAULT_BUSY_RETRY_MS, createUploadTransport, fetchAccessUrl, parseReceivedPieces, parseRetryAfterMs, parseStoredFile } from './upload-api';
import { UploadBusyError } from './upload-types';

function setup(reply: (config: InternalAxiosRequestConfig) => unknown) {
  const calls: InternalAxiosRequestConfig[] = [];
  const { client, ui } = participantClientOver(async (config): Promise<AxiosResponse> => {
    calls.push(config);
    const data = reply(config);
    return { data, status: 200, statusText: 'OK', headers: {}, config, request: {} };
  });
  return { client, calls, ui };
}

describe('parse helpers', () => {
  it('reads the stored file from the final answer, null before', () => {
    expect(parseStoredFile({ filePath: '/f/a.pdf', name: 'a.pdf', size: 12, id: 7 }, 'x', 1)).toEqual({
      id: '7',
      filePath: '/f/a.pdf',
      fileName: 'a.pdf',
      fileSize: 12,
    });
    expect(parseStoredFile({ filePath: '/f/b' }, 'b.pdf', 3)).toEqual({ id: '', filePath: '/f/b', fileName: 'b.pdf', fileSize: 3 });
    expect(parseStoredFile({ received: 3 }, 'x', 1)).toBeNull();
    // The server's shape: `id` is the upload id, the stored file is named by uniqueNo.
    expect(
      parseStoredFile(
        { complete: true, id: 'up-1', uniqueNo: 'U42', name: '方案.pdf', size: 9, filePath: '/api/attachment/stream/U42' },
        'x',
        1,
      ),
    ).toEqual({ id: 'U42', filePath: '/api/attachment/stream/U42', fileName: '方案.pdf', fileSize: 9 });
    expect(parseStoredFile({ complete: false, id: 'up-1', filePath: null, received: [0] }, 'x', 1)).toBeNull();
    expect(parseStoredFile(null, 'x', 1)).toBeNull();
  });

  it('reads the received pieces', () => {
    expect(parseReceivedPieces({ received: [0, '2', -1, 1.5, 3] })).toEqual([0, 2, 3]);
    expect(parseReceivedPieces([1])).toEqual([1]);
    expect(parseReceivedPieces(null)).toEqual([]);
  });
});

describe('createUploadTransport', () => {
  it('posts a piece as a raw body with the spec fields in the query and the realm token', async () => {
    const { client, calls } = setup(() => ({ status: 200, code: 'OK', message: '', data: { filePath: '/f/a', id: 'a1', name: 'a.pdf', size: 4 } }));
    const transport = createUploadTransport(client);
    const progress = vi.fn();
    const blob = new Blob(['abcd']);
    const stored = await transport.uploadPiece(
      { origin: 'TEAM', uploadId: 'up-1', chunks: 3, chunk: 2, name: '方案 a&b.pdf', blob },
      { signal: new AbortController().signal, onProgress: progress },
    );
    expect(stored).toEqual({ id: 'a1', filePath: '/f/a', fileName: 'a.pdf', fileSize: 4 });
    const call = calls[0]!;
    expect(call.url).toBe('/attachment/piece/upload');
    expect(call.method).toBe('post');
    expect(String(call.headers.Authorization)).toBe('Bearer tok');
    expect(call.params).toEqual({ origin: 'TEAM', chunks: '3', chunk: '2', id: 'up-1', name: '方案 a&b.pdf' });
    // The adapter sees the request after axios' transforms: the very Blob, neither JSON nor a form, and our type.
    expect(call.data).toBe(blob);
    expect(call.headers.getContentType()).toBe('application/octet-stream');
    // The query the server reads: every field URL-encoded, the name as UTF-8.
    const query = new URLSearchParams(serializeParams(call.params));
    expect(Object.fromEntries(query)).toEqual({ origin: 'TEAM', chunks: '3', chunk: '2', id: 'up-1', name: '方案 a&b.pdf' });
    call.onUploadProgress?.({ loaded: 50, total: 200, bytes: 50, lengthComputable: true });
    expect(progress).toHaveBeenCalledWith(0.25);
  });

  it('asks for received pieces silently, with the id as query', async () => {
    const { client, calls } = setup(() => ({ status: 200, code: 'OK', message: '', data: { received: [0, 1] } }));
    const pieces = await createUploadTransport(client).receivedPieces('up-9', new AbortController().signal);
    expect(pieces).toEqual([0, 1]);
    expect(calls[0]!.url).toBe('/attachment/piece/status');
    expect(calls[0]!.params).toEqual({ id: 'up-9' });
  });

  it('fetchAccessUrl reads a bare string or { url }', async () => {
    const { client, calls } = setup(() => ({ status: 200, code: 'OK', message: '', data: { url: '/files/x?sig=1' } }));
    expect(await fetchAccessUrl(client, '/f/x')).toBe('/files/x?sig=1');
    expect(calls[0]!.params).toEqual({ filePath: '/f/x' });
  });
});

describe('a piece the server is too busy for (429)', () => {
  function busyClient(status: number, body: unknown) {
    const { client, ui } = participantClientOver(
      async (config): Promise<AxiosResponse> => ({ data: body, status, statusText: '', headers: { 'retry-after': '3' }, config, request: {} }),
    );
    const send = () =>
      createUploadTransport(client).uploadPiece(
        { origin: 'TEAM', uploadId: 'up-1', chunks: 1, chunk: 0, name: 'a.pdf', blob: new Blob(['a']) },
        { signal: new AbortController().signal, onProgress: vi.fn() },
      );
    return { ui, send };
  }

  it('rejects with UploadBusyError naming the wait, and shows no toast', async () => {
    const { ui, send } = busyClient(429, { status: 429, code: 'RATE_LIMITED', message: '上传人数较多', data: { retryAfter: 3 } });
    const err = await send().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadBusyError);
    expect((err as UploadBusyError).retryAfterMs).toBe(3000);
    expect(ui.error).not.toHaveBeenCalled();
  });

  it('still toasts other refusals', async () => {
    const { ui, send } = busyClient(400, { status: 400, code: 'BAD_REQUEST', message: '文件内容与扩展名不符', data: null });
    await expect(send()).rejects.toMatchObject({ status: 400 });
    expect(ui.error).toHaveBeenCalledWith('文件内容与扩展名不符', expect.any(Number));
  });

  it('reads the wait from data.retryAfter, 2 s when absent', () => {
    expect(parseRetryAfterMs({ retryAfter: 1 })).toBe(1000);
    expect(parseRetryAfterMs({ retryAfter: 'x' })).toBe(DEFAULT_BUSY_RETRY_MS);
    expect(parseRetryAfterMs(null)).toBe(DEFAULT_BUSY_RETRY_MS);
  });
});
