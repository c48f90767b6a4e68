import { describe, expect, it, vi } from 'vitest';
import { UPLOAD_PIECE_SIZE, UPLOAD_RESTART_REASON } from '@contest/shared';
import { ResumeRegistry } from './resume-registry';
import { BUSY_GIVE_UP_MS, BUSY_WAIT_CAP_MS, UploadQueue, busyDelayMs, type UploadQueueOptions } from './upload-queue';
import { UploadBusyError, type PieceCallOptions, type PieceRequest, type StoredFile, type UploadTransport } from './upload-types';

interface PendingPiece {
  request: PieceRequest;
  options: PieceCallOptions;
  resolve(stored: StoredFile | null): void;
  reject(err: unknown): void;
}

/** A transport whose pieces stay in flight until the test settles them. */
function fakeTransport(received: Record<string, number[]> = {}) {
  const pending: PendingPiece[] = [];
  const calls: PieceRequest[] = [];
  const statusCalls: string[] = [];
  let maxInFlight = 0;
  const transport: UploadTransport = {
    uploadPiece: (request, options) =>
      new Promise<StoredFile | null>((resolve, reject) => {
        calls.push(request);
        const piece: PendingPiece = {
          request,
          options,
          resolve: (v) => {
            pending.splice(pending.indexOf(piece), 1);
            resolve(v);
          },
          reject: (e) => {
            pending.splice(pending.indexOf(piece), 1);
            reject(e);
          },
        };
        pending.push(piece);
        maxInFlight = Math.max(maxInFlight, pending.length);
        options.signal.addEventListener('abort', () => {
          if (pending.includes(piece)) piece.reject(new Error('cancelRequest'));
        });
      }),
    receivedPieces: async (uploadId) => {
      statusCalls.push(uploadId);
      return received[uploadId] ?? [];
    },
  };
  const inFlight = (name?: string) => pending.filter((p) => !name || p.request.name === name);
  /** Answers every piece of `name` in flight; the last piece answers the stored file. */
  const answer = (name: string) => {
    for (const piece of inFlight(name)) {
      const { chunk, chunks } = piece.request;
      piece.resolve(chunk === chunks - 1 ? stored(name) : null);
    }
  };
  return {
    transport,
    calls,
    statusCalls,
    inFlight,
    answer,
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

function stored(name: string): StoredFile {
  return { id: `id-${name}`, filePath: `/files/${name}`, fileName: name, fileSize: 1 };
}

function file(name: string, size = 10, lastModified = 1): File {
  const f = new File([], name, { lastModified });
  // Real bytes are not needed (and 55 MB would be slow): only size and slicing matter here.
  Object.defineProperty(f, 'size', { value: size });
  Object.defineProperty(f, 'slice', {
    value: (start: number, end: number) => {
      const piece = new Blob([]);
      Object.defineProperty(piece, 'size', { value: Math.max(0, Math.min(size, end) - start) });
      return piece;
    },
  });
  return f;
}

/** Lets resolved promises run their continuations. */
const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(overrides: Partial<UploadQueueOptions> = {}, received: Record<string, number[]> = {}) {
  const net = fakeTransport(received);
  const uploaded: { name: string; stored: StoredFile }[] = [];
  let value = 0;
  let uid = 0;
  const queue = new UploadQueue({
    transport: net.transport,
    origin: 'TEAM',
    accept: null,
    valueCount: () => value,
    onUploaded: (entry, s) => {
      uploaded.push({ name: entry.fileName, stored: s });
      value += 1;
    },
    resume: null,
    createUid: () => `u${++uid}`,
    // Most tests count pieces sent at once: they start at full speed; slow start has its own test.
    slowStartPieces: Infinity,
    ...overrides,
  });
  const status = (name: string) => queue.entries().find((e) => e.fileName === name)?.status;
  const percent = (name: string) => queue.entries().find((e) => e.fileName === name)?.percent;
  const uidOf = (name: string) => queue.entries().find((e) => e.fileName === name)!.uid;
  return {
    queue,
    net,
    uploaded,
    status,
    percent,
    uidOf,
    setValue: (n: number) => {
      value = n;
    },
  };
}

describe('UploadQueue: checks on picking', () => {
  it('refuses files over the count (value + queued + running), of an unaccepted type, or too large', () => {
    const { queue, status, setValue } = setup({
      maxCount: 3,
      maxSize: 100,
      accept: { extensions: new Set(['pdf', 'png']), mimeTypes: [] },
    });
    setValue(1);
    queue.add([file('a.pdf'), file('b.exe'), file('c.PNG', 101), file('d.png'), file('e.pdf')]);
    expect(status('a.pdf')).toBe('uploading');
    expect(status('b.exe')).toBe('error_noSupportFile');
    expect(status('c.PNG')).toBe('error_exceedFileSize');
    expect(status('d.png')).toBe('uploading');
    // 1 in the value + 2 running: the fifth file finds the uploader full.
    expect(status('e.pdf')).toBe('error_exceedUploadMaxNum');
    expect(queue.isFull()).toBe(true);
  });

  it('checks the count before the type and the size', () => {
    const { queue, status } = setup({ maxCount: 1, maxSize: 5, accept: { extensions: new Set(['pdf']), mimeTypes: [] } });
    queue.add([file('ok.pdf', 1), file('bad.exe', 50)]);
    expect(status('bad.exe')).toBe('error_exceedUploadMaxNum');
  });

  it('accepts anything without limits', () => {
    const { queue, status } = setup();
    queue.add([file('x.anything', 10 ** 10)]);
    expect(status('x.anything')).toBe('uploading');
  });
});

describe('UploadQueue: concurrency', () => {
  it('uploads two files at once, queues the rest and starts the next non-errored one when one ends', async () => {
    const { queue, net, status, uploaded } = setup({ maxSize: 50 });
    queue.add([file('1.pdf'), file('2.pdf'), file('big.pdf', 51), file('3.pdf'), file('4.pdf')]);
    await flush();
    expect([status('1.pdf'), status('2.pdf'), status('3.pdf'), status('4.pdf')]).toEqual([
      'uploading',
      'uploading',
      'waiting',
      'waiting',
    ]);
    expect(status('big.pdf')).toBe('error_exceedFileSize');
    expect(new Set(net.inFlight().map((p) => p.request.name))).toEqual(new Set(['1.pdf', '2.pdf']));

    net.answer('2.pdf');
    await flush();
    expect(uploaded.map((u) => u.name)).toEqual(['2.pdf']);
    // The finished file leaves the list (it is in the value now); the errored one is skipped.
    expect(status('2.pdf')).toBeUndefined();
    expect(status('big.pdf')).toBe('error_exceedFileSize');
    expect(status('3.pdf')).toBe('uploading');
    expect(status('4.pdf')).toBe('waiting');
    expect(net.inFlight().length).toBe(2);

    net.answer('1.pdf');
    net.answer('3.pdf');
    await flush();
    expect(status('4.pdf')).toBe('uploading');
    net.answer('4.pdf');
    await flush();
    expect(uploaded.map((u) => u.name)).toEqual(['2.pdf', '1.pdf', '3.pdf', '4.pdf']);
    expect(uploaded[0]!.stored).toEqual(stored('2.pdf'));
  });

  it('sends 5 MB pieces, at most five in flight, and the last piece alone at the end', async () => {
    const { queue, net, status, uploaded } = setup();
    const size = UPLOAD_PIECE_SIZE * 11 + 100;
    queue.add([file('big.zip', size)]);
    await flush();
    expect(net.inFlight().map((p) => p.request.chunk)).toEqual([0, 1, 2, 3, 4]);
    const first = net.inFlight()[0]!.request;
    expect(first).toMatchObject({ origin: 'TEAM', chunks: 12, chunk: 0, name: 'big.zip' });
    expect(first.blob.size).toBe(UPLOAD_PIECE_SIZE);

    // Finish pieces one by one: never more than five at once, never the last before the others.
    while (net.inFlight().length > 0) {
      const piece = net.inFlight()[0]!;
      if (piece.request.chunk === 11) {
        expect(net.calls.filter((c) => c.chunk !== 11).length).toBe(11);
        expect(net.inFlight().length).toBe(1);
      }
      piece.resolve(piece.request.chunk === 11 ? stored('big.zip') : null);
      await flush();
    }
    expect(net.maxInFlight).toBe(5);
    expect(net.calls.map((c) => c.chunk).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(net.calls.at(-1)!.chunk).toBe(11);
    expect(net.calls.at(-1)!.blob.size).toBe(100);
    expect(new Set(net.calls.map((c) => c.uploadId)).size).toBe(1);
    expect(uploaded.map((u) => u.name)).toEqual(['big.zip']);
    expect(status('big.zip')).toBeUndefined();
  });

  it('sends an empty file as one empty piece', async () => {
    const { queue, net, uploaded } = setup();
    queue.add([file('empty.txt', 0)]);
    await flush();
    expect(net.inFlight().map((p) => [p.request.chunk, p.request.chunks, p.request.blob.size])).toEqual([[0, 1, 0]]);
    net.answer('empty.txt');
    await flush();
    expect(uploaded).toHaveLength(1);
  });
});

describe('UploadQueue: progress', () => {
  it('grows with the bytes sent and stays at 99 until the server answers with the stored file', async () => {
    const { queue, net, percent, uploaded } = setup({ pieceSize: 100 });
    queue.add([file('a.pdf', 200)]);
    await flush();
    expect(percent('a.pdf')).toBe(0);
    net.inFlight()[0]!.options.onProgress(0.5);
    expect(percent('a.pdf')).toBe(25);
    net.inFlight()[0]!.resolve(null);
    await flush();
    expect(percent('a.pdf')).toBe(50);
    // The last piece fully sent: all the bytes are out, but no answer yet.
    net.inFlight()[0]!.options.onProgress(1);
    expect(percent('a.pdf')).toBe(99);
    expect(uploaded).toHaveLength(0);
    net.answer('a.pdf');
    await flush();
    expect(uploaded).toHaveLength(1);
  });

  it('fails the file when the last piece is accepted without a stored file', async () => {
    const { queue, net, status } = setup();
    queue.add([file('a.pdf')]);
    await flush();
    net.inFlight()[0]!.resolve(null);
    await flush();
    expect(status('a.pdf')).toBe('error_upload');
  });
});

describe('UploadQueue: failures, cancel, delete, retry', () => {
  it('marks a file 上传失败 when a piece fails, aborting its other pieces, and moves on', async () => {
    const { queue, net, status } = setup({ pieceSize: 10, concurrentFiles: 1 });
    queue.add([file('a.pdf', 100), file('b.pdf')]);
    await flush();
    const signals = net.inFlight('a.pdf').map((p) => p.options.signal);
    expect(signals).toHaveLength(5);
    net.inFlight('a.pdf')[2]!.reject(new Error('boom'));
    await flush();
    expect(status('a.pdf')).toBe('error_upload');
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(net.inFlight('a.pdf')).toHaveLength(0);
    expect(status('b.pdf')).toBe('uploading');
  });

  it('cancel aborts a running upload (已取消!) and frees its place', async () => {
    const { queue, net, status, uidOf, uploaded } = setup({ concurrentFiles: 1 });
    queue.add([file('a.pdf'), file('b.pdf')]);
    await flush();
    const signal = net.inFlight('a.pdf')[0]!.options.signal;
    queue.cancel(uidOf('a.pdf'));
    expect(signal.aborted).toBe(true);
    expect(status('a.pdf')).toBe('error_cancel');
    expect(status('b.pdf')).toBe('uploading');
    await flush();
    // The aborted request's late rejection does not turn the cancel into a failure.
    expect(status('a.pdf')).toBe('error_cancel');
    expect(uploaded).toHaveLength(0);
  });

  it('removing a waiting file marks it deleted and takes it out of the queue', async () => {
    const { queue, net, status, uidOf } = setup({ concurrentFiles: 1, maxCount: 2 });
    queue.add([file('a.pdf'), file('b.pdf')]);
    expect(queue.isFull()).toBe(true);
    queue.remove(uidOf('b.pdf'));
    expect(status('b.pdf')).toBe('error_deleted');
    expect(queue.isFull()).toBe(false);
    net.answer('a.pdf');
    await flush();
    expect(net.calls.map((c) => c.name)).toEqual(['a.pdf']);
    // A deleted row cannot be retried; removing it again drops it from the list.
    expect(queue.canRetry(uidOf('b.pdf'))).toBe(false);
    queue.remove(uidOf('b.pdf'));
    expect(status('b.pdf')).toBeUndefined();
  });

  it('markDeleted shows a value file as 已删除!', () => {
    const { queue, status } = setup();
    queue.markDeleted({ uid: 'v1', fileName: 'old.pdf', fileSize: 3 });
    expect(status('old.pdf')).toBe('error_deleted');
  });

  it('destroy (leaving the screen) aborts active uploads and starts nothing else', async () => {
    const { queue, net, status, uploaded } = setup();
    const listener = vi.fn();
    queue.add([file('a.pdf'), file('b.pdf'), file('c.pdf')]);
    queue.subscribe(listener);
    await flush();
    const signals = net.inFlight().map((p) => p.options.signal);
    queue.destroy();
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(status('a.pdf')).toBe('error_cancel');
    expect(status('c.pdf')).toBe('waiting');
    await flush();
    expect(net.calls.map((c) => c.name)).toEqual(['a.pdf', 'b.pdf']);
    expect(listener).not.toHaveBeenCalled();
    expect(uploaded).toHaveLength(0);
    queue.add([file('d.pdf')]);
    expect(status('d.pdf')).toBeUndefined();
  });
});

describe('UploadQueue: resume', () => {
  function memoryStorage() {
    const data = new Map<string, string>();
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
  }

  it('a retried file keeps its upload id and skips the pieces the server already has', async () => {
    let ids = 0;
    const resume = new ResumeRegistry(memoryStorage(), () => 1000, () => `up-${++ids}`);
    const received: Record<string, number[]> = {};
    const { queue, net, status, uidOf, percent, uploaded } = setup({ pieceSize: 10, resume }, received);
    queue.add([file('a.pdf', 100)]);
    await flush();
    // First attempt: a fresh id, no status call.
    expect(net.statusCalls).toEqual([]);
    expect(net.inFlight().map((p) => p.request.chunk)).toEqual([0, 1, 2, 3, 4]);
    net.inFlight()[0]!.resolve(null);
    net.inFlight()[0]!.resolve(null);
    await flush();
    queue.cancel(uidOf('a.pdf'));
    await flush();
    received['up-1'] = [0, 1, 9];

    net.calls.length = 0;
    queue.retry(uidOf('a.pdf'));
    expect(status('a.pdf')).toBe('uploading');
    await flush();
    expect(net.statusCalls).toEqual(['up-1']);
    // Pieces 0 and 1 are skipped and counted; the last one (9) is always sent, and sent last.
    expect(percent('a.pdf')).toBe(20);
    expect(net.inFlight().map((p) => [p.request.uploadId, p.request.chunk])).toEqual([
      ['up-1', 2],
      ['up-1', 3],
      ['up-1', 4],
      ['up-1', 5],
      ['up-1', 6],
    ]);
    while (net.inFlight().length > 0) {
      net.answer('a.pdf');
      await flush();
    }
    expect(net.calls.map((c) => c.chunk)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(uploaded).toHaveLength(1);
    // Stored: the id is forgotten, so the same file picked again starts afresh.
    expect(resume.take('TEAM|a.pdf|100|1')).toEqual({ uploadId: 'up-2', resumed: false });
  });

  it('the same file picked again after a failure resumes under the same id', async () => {
    let ids = 0;
    const resume = new ResumeRegistry(memoryStorage(), () => 1000, () => `up-${++ids}`);
    const { queue, net, status } = setup({ resume }, { 'up-1': [] });
    queue.add([file('a.pdf')]);
    await flush();
    net.inFlight()[0]!.reject(new Error('network'));
    await flush();
    expect(status('a.pdf')).toBe('error_upload');
    queue.add([file('a.pdf')]);
    await flush();
    expect(net.statusCalls).toEqual(['up-1']);
    expect(net.inFlight()[0]!.request.uploadId).toBe('up-1');
  });

  it('starts over under a new id when the server dropped the upload (its join was cut off)', async () => {
    let ids = 0;
    const resume = new ResumeRegistry(memoryStorage(), () => 1000, () => `up-${++ids}`);
    const { queue, net, status, uidOf } = setup({ resume }, { 'up-1': [0] });
    queue.add([file('a.pdf')]);
    await flush();
    net.inFlight()[0]!.reject(Object.assign(new Error('上传中断，请重新上传该文件'), { data: { reason: UPLOAD_RESTART_REASON } }));
    await flush();
    expect(status('a.pdf')).toBe('error_upload');
    queue.retry(uidOf('a.pdf'));
    await flush();
    expect(net.statusCalls).toEqual([]);
    expect(net.inFlight()[0]!.request.uploadId).toBe('up-2');
  });

  it('a failing status check falls back to sending every piece', async () => {
    const resume = new ResumeRegistry(memoryStorage(), () => 1000, () => 'up-1');
    const { queue, net, status, uidOf } = setup({ resume });
    net.transport.receivedPieces = async () => {
      throw new Error('404');
    };
    queue.add([file('a.pdf')]);
    await flush();
    net.inFlight()[0]!.reject(new Error('x'));
    await flush();
    queue.retry(uidOf('a.pdf'));
    await flush();
    expect(status('a.pdf')).toBe('uploading');
    expect(net.inFlight().map((p) => p.request.chunk)).toEqual([0]);
  });

  it('retrying into a full uploader is refused with 数量超限', async () => {
    const { queue, net, status, uidOf, setValue } = setup({ maxCount: 1 });
    queue.add([file('a.pdf')]);
    await flush();
    net.inFlight()[0]!.reject(new Error('x'));
    await flush();
    setValue(1);
    queue.retry(uidOf('a.pdf'));
    expect(status('a.pdf')).toBe('error_exceedUploadMaxNum');
  });
});

describe('ResumeRegistry', () => {
  it('forgets ids older than the server keeps pieces', () => {
    const data = new Map<string, string>();
    const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
    let now = 0;
    let ids = 0;
    const registry = new ResumeRegistry(storage, () => now, () => `id${++ids}`);
    expect(registry.take('f')).toEqual({ uploadId: 'id1', resumed: false });
    now = 60_000;
    expect(registry.take('f')).toEqual({ uploadId: 'id1', resumed: true });
    now = 24 * 60 * 60 * 1000;
    expect(registry.take('f')).toEqual({ uploadId: 'id2', resumed: false });
  });

  it('survives a storage that throws', () => {
    const registry = new ResumeRegistry(
      {
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => {
          throw new Error('denied');
        },
      },
      () => 0,
      () => 'x',
    );
    expect(registry.take('f')).toEqual({ uploadId: 'x', resumed: false });
  });
});

describe('UploadQueue: a server too busy to take a piece (429)', () => {
  /** A sleep the test ends by hand, recording what was asked. */
  function manualSleep() {
    const waits: { ms: number; wake: () => void }[] = [];
    const sleep = (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        waits.push({ ms, wake: resolve });
        signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
    return { waits, sleep };
  }

  it('sends the refused piece again after the wait the server named, plus jitter, without failing or alarming', async () => {
    const { waits, sleep } = manualSleep();
    const { queue, net, status, percent, uploaded } = setup({ sleep, random: () => 0.5 });
    const size = UPLOAD_PIECE_SIZE * 2 + 10;
    queue.add([file('busy.zip', size)]);
    await flush();
    const [first, second] = net.inFlight();
    first!.options.onProgress(1);
    second!.options.onProgress(1);
    expect(percent('busy.zip')).toBe(99);
    first!.reject(new UploadBusyError(2000));
    second!.resolve(null);
    await flush();
    // Asked 2 s: waits 2 s plus up to half of it at random.
    expect(waits.map((w) => w.ms)).toEqual([2500]);
    expect(status('busy.zip')).toBe('uploading');
    // Its bytes count again once it is sent again; the bar does not go back meanwhile.
    expect(percent('busy.zip')).toBe(99);
    expect(net.calls.filter((c) => c.chunk === 0)).toHaveLength(1);

    waits[0]!.wake();
    await flush();
    expect(net.calls.filter((c) => c.chunk === 0)).toHaveLength(2);
    // Refused again: still no failure, another wait.
    net.inFlight()[0]!.reject(new UploadBusyError(1000));
    await flush();
    expect(waits.map((w) => w.ms)).toEqual([2500, 1250]);
    waits[1]!.wake();
    await flush();
    net.answer('busy.zip');
    await flush();
    net.answer('busy.zip');
    await flush();
    expect(uploaded.map((u) => u.name)).toEqual(['busy.zip']);
  });

  it('retries the last piece too, and other failures still fail the file', async () => {
    const { waits, sleep } = manualSleep();
    const { queue, net, status, uploaded } = setup({ sleep, random: () => 0 });
    queue.add([file('one.pdf', 10), file('two.pdf', 10)]);
    await flush();
    net.inFlight('one.pdf')[0]!.reject(new UploadBusyError(1000));
    net.inFlight('two.pdf')[0]!.reject(new Error('400 文件内容与扩展名不符'));
    await flush();
    expect(status('one.pdf')).toBe('uploading');
    expect(status('two.pdf')).toBe('error_upload');
    waits[0]!.wake();
    await flush();
    net.answer('one.pdf');
    await flush();
    expect(uploaded.map((u) => u.name)).toEqual(['one.pdf']);
  });

  it('caps the wait, and gives the file up only after a long time refused', async () => {
    expect(busyDelayMs(2000, 0)).toBe(2000);
    expect(busyDelayMs(2000, 1)).toBe(3000);
    expect(busyDelayMs(10 * 60_000, 0)).toBe(BUSY_WAIT_CAP_MS);
    expect(busyDelayMs(-5, 1)).toBe(0);

    const asked: number[] = [];
    const sleep = async (ms: number) => {
      asked.push(ms);
    };
    const { queue, net, status } = setup({ sleep, random: () => 0 });
    queue.add([file('never.pdf', 10)]);
    for (let i = 0; i < 40 && status('never.pdf') === 'uploading'; i++) {
      await flush();
      for (const piece of net.inFlight('never.pdf')) piece.reject(new UploadBusyError(60_000));
      await flush();
    }
    expect(status('never.pdf')).toBe('error_upload');
    expect(asked.every((ms) => ms === BUSY_WAIT_CAP_MS)).toBe(true);
    expect(asked.reduce((a, b) => a + b, 0)).toBe(BUSY_GIVE_UP_MS);
  });

  it('a cancel during the wait ends the run as cancelled, and nothing is sent after it', async () => {
    const { waits, sleep } = manualSleep();
    const { queue, net, status, uidOf } = setup({ sleep, random: () => 0 });
    queue.add([file('stop.pdf', 10)]);
    await flush();
    net.inFlight()[0]!.reject(new UploadBusyError(1000));
    await flush();
    expect(waits).toHaveLength(1);
    queue.cancel(uidOf('stop.pdf'));
    waits[0]!.wake();
    await flush();
    expect(status('stop.pdf')).toBe('error_cancel');
    expect(net.calls).toHaveLength(1);
  });

  it('sends fewer pieces at once after a refusal, and more again as pieces are taken (AIMD, per queue)', async () => {
    const { waits, sleep } = manualSleep();
    const { queue, net, uploaded } = setup({ sleep, random: () => 0 });
    const size = UPLOAD_PIECE_SIZE * 40 + 10;
    queue.add([file('a.zip', size), file('b.zip', size)]);
    await flush();
    // Normal concurrency: 2 files x 5 pieces.
    expect(net.inFlight()).toHaveLength(10);
    expect(queue.piecesWindow()).toBe(10);
    // The crowd refuses every piece sent: the window halves once for that burst.
    for (const piece of net.inFlight()) piece.reject(new UploadBusyError(1000));
    await flush();
    expect(queue.piecesWindow()).toBe(5);
    expect(waits).toHaveLength(10);
    for (const w of waits.splice(0)) w.wake();
    await flush();
    expect(net.inFlight()).toHaveLength(5);
    // Refused again: halved again; only 2 of the waiting pieces go next.
    for (const piece of net.inFlight()) piece.reject(new UploadBusyError(1000));
    await flush();
    expect(queue.piecesWindow()).toBe(2);
    for (const w of waits.splice(0)) w.wake();
    await flush();
    expect(net.inFlight()).toHaveLength(2);
    // Pieces taken: one more at once every few.
    let peak = 0;
    const answerAll = () => {
      for (const piece of net.inFlight()) piece.resolve(piece.request.chunk === piece.request.chunks - 1 ? stored(piece.request.name) : null);
    };
    for (let i = 0; i < 8; i++) {
      answerAll();
      await flush();
      peak = Math.max(peak, net.inFlight().length);
    }
    expect(queue.piecesWindow()).toBeGreaterThan(5);
    expect(peak).toBeGreaterThan(2);
    expect(peak).toBeLessThanOrEqual(10);
    for (let i = 0; i < 200 && uploaded.length < 2; i++) {
      answerAll();
      await flush();
    }
    expect(uploaded.map((u) => u.name).sort()).toEqual(['a.zip', 'b.zip']);
    expect(queue.piecesWindow()).toBe(10);
  });

  it('starts with 2 pieces at once and adds one per piece taken up to 2 files x 5 (slow start)', async () => {
    const { queue, net } = setup({ slowStartPieces: undefined });
    queue.add([file('a.zip', UPLOAD_PIECE_SIZE * 40), file('b.zip', UPLOAD_PIECE_SIZE * 40)]);
    await flush();
    expect(net.inFlight()).toHaveLength(2);
    const seen: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (const piece of net.inFlight()) piece.resolve(null);
      await flush();
      seen.push(net.inFlight().length);
    }
    // Each piece taken lets two go: the window doubles each round until the normal 10.
    expect(seen).toEqual([4, 8, 10, 10]);
    expect(queue.piecesWindow()).toBe(10);
  });
});
