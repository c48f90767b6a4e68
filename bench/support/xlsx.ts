/** Downloading an .xlsx export as a browser does, with its time, size, rows and the RSS of this process. */
import { createWriteStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import ExcelJS from 'exceljs';
import { MB, sampleMemory } from './memory.js';

export interface DownloadFigures {
  status: number;
  seconds: number;
  firstByteMs: number;
  bytes: number;
  baseRssMb: number;
  peakRssMb: number;
  endRssMb: number;
  /** Rows of each sheet, header excluded, in sheet order. */
  sheetRows: number[];
}

/**
 * GET `url` into `file`, RSS of this process (the app runs in it) sampled every 50 ms from the
 * request to the last byte; then (not measured) the rows of each sheet. Run with
 * `node --expose-gc` to start from a collected heap.
 */
export async function downloadXlsx(url: string, token: string, file: string): Promise<DownloadFigures> {
  (globalThis as { gc?: () => void }).gc?.();
  const rss = sampleMemory(50);
  const started = performance.now();
  let firstByte = 0;
  let status = 0;
  let memory;
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    status = res.status;
    if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
    const body = Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
    body.once('data', () => (firstByte = performance.now() - started));
    await pipeline(body, createWriteStream(file));
  } finally {
    memory = rss.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const sheetRows: number[] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', worksheets: 'emit', styles: 'ignore', hyperlinks: 'ignore' });
  for await (const sheet of reader) {
    let n = 0;
    for await (const _row of sheet as AsyncIterable<unknown>) n++;
    sheetRows.push(n - 1);
  }
  return {
    status,
    seconds,
    firstByteMs: firstByte,
    bytes: statSync(file).size,
    baseRssMb: memory.base / MB,
    peakRssMb: memory.peak / MB,
    endRssMb: memory.end / MB,
    sheetRows,
  };
}
