/**
 * The two timed transfers of the speed test (docs/decisions.md, "Speed-test page"), through the app's HTTP client so the
 * token, the realm and a 401 (session ended: back to / with the login dialog) work as
 * everywhere else. The client runs on XMLHttpRequest in browsers, which reports progress both
 * ways. Each direction stops after MAX_PROBE_MS and is timed on what arrived by then, so a very
 * slow line still gets a figure without waiting minutes.
 */
import { SPEED_CONTENT_TYPE, type SpeedUploadAnswer } from '@contest/shared';
import type { AxiosProgressEvent } from 'axios';
import { api, dataOf } from '../../../lib/api';
import { bytesPerSecond } from './speed-estimate';

/** What each direction moves: big enough to leave TCP slow start behind, small enough for a phone plan. */
export const DOWNLOAD_BYTES = 8 * 1024 * 1024;
export const UPLOAD_BYTES = 4 * 1024 * 1024;
export const MAX_PROBE_MS = 20_000;

export interface ProbeResult {
  bytes: number;
  ms: number;
  bytesPerSecond: number;
}

export interface ProbeOptions {
  signal: AbortSignal;
  /** Share of the transfer done, 0 to 1. */
  onProgress(fraction: number): void;
  /** Tests shorten the cap. */
  maxMs?: number;
}

/** Thrown when a transfer finished without a usable figure (nothing moved). */
export class ProbeFailedError extends Error {
  override readonly name = 'ProbeFailedError';
}

const now = () => performance.now();

/**
 * Runs one transfer under its own abort signal (the caller's, plus the time cap) and times it.
 * Cut by the cap, the figure is what had moved when the last progress event came.
 */
async function timed(
  total: number,
  { signal, onProgress, maxMs = MAX_PROBE_MS }: ProbeOptions,
  run: (signal: AbortSignal, onLoaded: (loaded: number) => void) => Promise<number>,
): Promise<ProbeResult> {
  const inner = new AbortController();
  const forward = () => inner.abort();
  if (signal.aborted) inner.abort();
  signal.addEventListener('abort', forward, { once: true });
  const start = now();
  let loaded = 0;
  let loadedAt = start;
  let capped = false;
  const timer = setTimeout(() => {
    capped = true;
    inner.abort();
  }, maxMs);
  const result = (bytes: number, ms: number): ProbeResult => {
    const speed = bytesPerSecond(bytes, ms);
    if (speed === null) throw new ProbeFailedError('nothing was transferred');
    return { bytes, ms, bytesPerSecond: speed };
  };
  try {
    const bytes = await run(inner.signal, (n) => {
      loaded = n;
      loadedAt = now();
      onProgress(Math.min(1, n / total));
    });
    onProgress(1);
    return result(bytes, now() - start);
  } catch (err) {
    if (capped && !signal.aborted && loaded > 0) return result(loaded, loadedAt - start);
    throw err;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', forward);
  }
}

const loadedOf = (event: AxiosProgressEvent) => event.loaded;

/** Times a download of filler bytes from GET /attachment/speed. */
export function probeDownload(options: ProbeOptions, bytes = DOWNLOAD_BYTES): Promise<ProbeResult> {
  return timed(bytes, options, async (signal, onLoaded) => {
    const answer = await api.get('/attachment/speed', {
      params: { size: bytes },
      responseType: 'blob',
      signal,
      silent: true,
      onDownloadProgress: (event) => onLoaded(loadedOf(event)),
    });
    // An envelope here would be a refusal, which the client rejects with; a file is a blob.
    return 'blob' in answer ? answer.blob.size : 0;
  });
}

/**
 * Bytes that do not compress, so a proxy that squeezes bodies cannot flatter the figure.
 * getRandomValues fills at most 64 KB a call.
 */
export function throwAwayBody(bytes: number): Blob {
  const data = new Uint8Array(bytes);
  const step = 65_536;
  for (let at = 0; at < bytes; at += step) crypto.getRandomValues(data.subarray(at, Math.min(bytes, at + step)));
  return new Blob([data], { type: SPEED_CONTENT_TYPE });
}

/** Times an upload of a throw-away body to POST /attachment/speed (the server counts and drops it). */
export function probeUpload(options: ProbeOptions, bytes = UPLOAD_BYTES): Promise<ProbeResult> {
  const body = throwAwayBody(bytes);
  return timed(bytes, options, async (signal, onLoaded) => {
    const answer = await dataOf(
      api.post<SpeedUploadAnswer>('/attachment/speed', body, {
        headers: { 'Content-Type': SPEED_CONTENT_TYPE },
        signal,
        silent: true,
        onUploadProgress: (event) => onLoaded(loadedOf(event)),
      }),
    );
    return answer.received;
  });
}
