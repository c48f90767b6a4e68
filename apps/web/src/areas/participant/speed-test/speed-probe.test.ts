import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AxiosProgressEvent } from 'axios';
import { RequestCancelledError } from '../../../api';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { ProbeFailedError, probeDownload, probeUpload, throwAwayBody } from './speed-probe';

const MB = 1024 * 1024;

interface Call {
  url: string;
  body?: unknown;
  config: {
    params?: Record<string, unknown>;
    headers?: Record<string, string>;
    signal?: AbortSignal;
    onDownloadProgress?: (e: AxiosProgressEvent) => void;
    onUploadProgress?: (e: AxiosProgressEvent) => void;
  };
}

/** A clock the fake transfers move on: elapsed time is exact. */
let clock = 0;
function useFakeClock() {
  clock = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
}

/** A call that never ends by itself: rejects as the client does once its signal aborts. */
function hangUntilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(new RequestCancelledError()));
  });
}

describe('speed probes', () => {
  afterEach(() => vi.restoreAllMocks());

  it('times a download through the client, with progress', async () => {
    useFakeClock();
    const calls: Call[] = [];
    vi.spyOn(api, 'get').mockImplementation((async (url: string, config: Call['config']) => {
      calls.push({ url, config });
      clock += 500;
      config.onDownloadProgress?.({ loaded: 4 * MB } as AxiosProgressEvent);
      clock += 500;
      return { blob: new Blob([new Uint8Array(8 * MB)]), fileName: null };
    }) as never);
    const progress: number[] = [];
    const result = await probeDownload({ signal: new AbortController().signal, onProgress: (f) => progress.push(f) });
    expect(calls[0]!.url).toBe('/attachment/speed');
    expect(calls[0]!.config.params).toEqual({ size: 8 * MB });
    expect(result).toEqual({ bytes: 8 * MB, ms: 1000, bytesPerSecond: 8 * MB });
    expect(progress).toEqual([0.5, 1]);
  });

  it('times an upload of raw, incompressible bytes and trusts the count the server read', async () => {
    useFakeClock();
    const calls: Call[] = [];
    vi.spyOn(api, 'post').mockImplementation((async (url: string, body: unknown, config: Call['config']) => {
      calls.push({ url, body, config });
      clock += 8000;
      config.onUploadProgress?.({ loaded: 4 * MB } as AxiosProgressEvent);
      return ok({ received: 4 * MB });
    }) as never);
    const result = await probeUpload({ signal: new AbortController().signal, onProgress: () => {} });
    expect(result.bytesPerSecond).toBe(0.5 * MB);
    const { url, body, config } = calls[0]!;
    expect(url).toBe('/attachment/speed');
    expect(config.headers).toEqual({ 'Content-Type': 'application/octet-stream' });
    expect(body).toBeInstanceOf(Blob);
    expect((body as Blob).size).toBe(4 * MB);
  });

  it('fills the throw-away body with random bytes', async () => {
    const bytes = new Uint8Array(await throwAwayBody(200_000).arrayBuffer());
    expect(bytes.length).toBe(200_000);
    expect(new Set(bytes.subarray(0, 1000)).size).toBeGreaterThan(100);
    // Past the first 64 KB block too.
    expect(new Set(bytes.subarray(150_000, 151_000)).size).toBeGreaterThan(100);
  });

  it('cuts a slow transfer at the cap and times what had arrived', async () => {
    useFakeClock();
    vi.spyOn(api, 'get').mockImplementation((async (_url: string, config: Call['config']) => {
      clock += 2000;
      config.onDownloadProgress?.({ loaded: MB } as AxiosProgressEvent);
      clock += 300; // after the last progress event: not counted
      return hangUntilAborted(config.signal);
    }) as never);
    const result = await probeDownload({ signal: new AbortController().signal, onProgress: () => {}, maxMs: 20 });
    expect(result).toEqual({ bytes: MB, ms: 2000, bytesPerSecond: 0.5 * MB });
  });

  it('gives up at the cap when nothing arrived, and passes the caller abort on', async () => {
    let seen: AbortSignal | undefined;
    vi.spyOn(api, 'get').mockImplementation((async (_url: string, config: Call['config']) => {
      seen = config.signal;
      return hangUntilAborted(config.signal);
    }) as never);
    await expect(probeDownload({ signal: new AbortController().signal, onProgress: () => {}, maxMs: 20 })).rejects.toBeInstanceOf(RequestCancelledError);

    const caller = new AbortController();
    const pending = probeDownload({ signal: caller.signal, onProgress: () => {}, maxMs: 60_000 });
    await Promise.resolve();
    caller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    expect(seen?.aborted).toBe(true);
  });

  it('rejects a transfer that moved nothing, and passes refusals on', async () => {
    vi.spyOn(api, 'post').mockResolvedValueOnce(ok({ received: 0 }) as never).mockRejectedValueOnce(refused('测速数据不能超过 20 MB', null, 413));
    await expect(probeUpload({ signal: new AbortController().signal, onProgress: () => {} }, 16)).rejects.toBeInstanceOf(ProbeFailedError);
    await expect(probeUpload({ signal: new AbortController().signal, onProgress: () => {} }, 16)).rejects.toMatchObject({ status: 413 });
  });
});
