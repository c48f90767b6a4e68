/**
 * Spreadsheet exports written as they are read: rows come from async iterables (database
 * batches), go through ExcelJS's streaming writer and leave as a Node Readable the route
 * sends. Memory stays flat whatever the number of rows, because reading waits for writing.
 *
 * Why the waiting is done here: ExcelJS pipes its zip archive into the stream it is given
 * (`zip.pipe(out)`), so a full `out` pauses the archive; but each sheet's XML goes into the
 * archive through ExcelJS's own StreamBuf, which ignores `write()` returning false. A writer
 * that kept adding rows would pile the XML up in front of the compressor. So before each row
 * we check both ends, the sheet's queue in front of the compressor and the output, and stop
 * reading rows (the database) until they drain.
 */
import { EventEmitter } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';

export interface XlsxColumn {
  header: string;
  key: string;
  /** Characters; ExcelJS's default (about 9) otherwise. */
  width?: number;
}

export interface XlsxSheet {
  name: string;
  columns: readonly XlsxColumn[];
  /** Read lazily, one row at a time, only while the client keeps up; closed early on abort. */
  rows: AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>;
}

export interface XlsxStreamOptions {
  /** Bytes of sheet XML that may wait for the compressor before reading pauses (default 1 MiB). */
  maxPendingBytes?: number;
  /** Buffer of the returned stream (default 64 KiB). */
  highWaterMark?: number;
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Text a spreadsheet program could take for a formula (OWASP, "CSV Injection"): starting with
 * `=`, `+`, `-`, `@` (and their full-width forms, which Chinese input methods type), tab or CR.
 * ExcelJS writes strings as text cells, never formulas, so opening the file runs nothing; but
 * Excel and LibreOffice re-read a cell as a formula when it is edited, and a CSV re-save drops
 * the cell type. So such text gets a leading single quote, as OWASP advises: it shows, and the
 * cell stays text however it is handled later (docs/security.md, "Spreadsheet exports").
 * Numbers stay numbers (a negative score is a number cell, not text).
 */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

/** A cell value that no spreadsheet program runs: text that could start a formula is quoted. */
export function safeCell<T>(value: T): T | string {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** Every value of a row through safeCell (rows and header rows of every export and template). */
export function safeRow<R extends Record<string, unknown> | unknown[]>(row: R): R {
  if (Array.isArray(row)) return row.map(safeCell) as R;
  const out: Record<string, unknown> = {};
  for (const key in row) out[key] = safeCell(row[key]);
  return out as R;
}

/** Beijing wall-clock time for a spreadsheet (people read it; ISO is for machines): `YYYY-MM-DD HH:mm:ss`, '' for none. */
export const beijingTime = (d: Date | null | undefined): string =>
  d ? new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ') : '';

/** Beijing date `YYYY-MM-DD`, e.g. for the file name. */
export const beijingDate = (d: Date): string => beijingTime(d).slice(0, 10);

/**
 * Reads `total` rows in batches of `batchSize`, one batch per step of the consumer, so a
 * paused export holds one batch. `fetch` gets the offset, the limit and the last row of the
 * previous batch: a repository with keyset paging continues after that row (cost independent
 * of the position) and ignores the offset. Stops at `total` (rows added meanwhile wait for
 * the next export) or at a short batch (rows removed meanwhile).
 */
export async function* batches<T>(
  fetch: (offset: number, limit: number, last: T | undefined) => Promise<T[]>,
  total: number,
  batchSize = 1000,
): AsyncGenerator<T[]> {
  let last: T | undefined;
  for (let offset = 0; offset < total; ) {
    const limit = Math.min(batchSize, total - offset);
    const rows = await fetch(offset, limit, last);
    if (rows.length) yield rows;
    if (rows.length < limit) return;
    offset += rows.length;
    last = rows[rows.length - 1];
  }
}

/** The rows of batched reads, each mapped to a spreadsheet row. */
export async function* rowsOf<T, R extends Record<string, unknown>>(source: AsyncIterable<readonly T[]>, map: (row: T) => R): AsyncGenerator<R> {
  for await (const batch of source) for (const row of batch) yield map(row);
}

// ---- Backpressure -------------------------------------------------------------------------

/** What a stream holds, on either side (readable-stream 2 inside archiver has no getters). */
interface StreamState {
  _writableState?: { length: number };
  _readableState?: { length: number };
}
const held = (s: StreamState) => (s._writableState?.length ?? 0) + (s._readableState?.length ?? 0);

/**
 * The stream between the sheet's XML and the compressor: the PassThrough archiver wraps
 * ExcelJS's StreamBuf in (`worksheet.stream.pipes[0]`). Not public API, hence the checks: if
 * a later ExcelJS changes it, this returns undefined and only the output is watched (plus a
 * turn of the event loop every few rows so compression keeps up). Exported for its test.
 */
export function compressorQueue(sheet: ReturnType<ExcelJS.stream.xlsx.WorkbookWriter['addWorksheet']>): (EventEmitter & StreamState) | undefined {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes;
  const queue = Array.isArray(pipes) && pipes.length === 1 ? pipes[0] : undefined;
  return queue instanceof EventEmitter && '_writableState' in queue ? (queue as EventEmitter & StreamState) : undefined;
}

/** Resolves at the first of the events (listeners removed), for re-checking a condition. */
function firstOf(sources: ReadonlyArray<readonly [EventEmitter, string]>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const [emitter, event] of sources) emitter.off(event, done);
      resolve();
    };
    for (const [emitter, event] of sources) emitter.on(event, done);
  });
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

// Without access to the compressor's queue: how many rows may be written between two turns.
const ROWS_PER_TURN = 200;

/**
 * Writes the sheets one after another (each sheet's rows are read only once the previous sheet
 * is done) into an .xlsx and returns it as a stream, the header row in bold. Reading pauses
 * while the client does not read; destroying the stream (the client went away) stops the
 * reading and closes the current rows iterator (its `finally` runs, so a batch reader stops);
 * a failing source destroys the stream with its error.
 */
export function writeXlsx(sheets: readonly XlsxSheet[], options: XlsxStreamOptions = {}): Readable {
  const maxPending = options.maxPendingBytes ?? 1024 * 1024;
  const out = new PassThrough({ highWaterMark: options.highWaterMark ?? 64 * 1024 });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });

  const queueFull = (queue: StreamState | undefined) => queue !== undefined && held(queue) > maxPending;
  const full = (queue: StreamState | undefined) => out.writableNeedDrain || queueFull(queue);

  // Waits while the output or the compressor's queue is full; false when the stream is gone.
  async function roomFor(queue: (EventEmitter & StreamState) | undefined): Promise<boolean> {
    while (!out.destroyed && full(queue)) {
      // 'drain' of the output: the client read; of the queue: the compressor caught up; 'close': gone.
      await firstOf([
        [out, 'drain'],
        [out, 'close'],
        ...(queueFull(queue) ? [[queue!, 'drain'] as const] : []),
      ]);
    }
    return !out.destroyed;
  }

  void (async () => {
    try {
      for (const spec of sheets) {
        if (out.destroyed) return;
        const sheet = workbook.addWorksheet(spec.name);
        sheet.columns = spec.columns.map((c) => ({ header: safeCell(c.header), key: c.key, ...(c.width ? { width: c.width } : {}) }));
        sheet.getRow(1).font = { bold: true };
        sheet.getRow(1).commit();
        const queue = compressorQueue(sheet);
        let sinceTurn = 0;
        for await (const row of spec.rows) {
          // Leaving the loop closes the iterator: the source stops reading the database. (The
          // await only when full: a promise per row would cost more than the check.)
          if ((out.destroyed || full(queue)) && !(await roomFor(queue))) return;
          sheet.addRow(safeRow(row)).commit();
          if (queue === undefined && ++sinceTurn >= ROWS_PER_TURN) {
            sinceTurn = 0;
            await turn();
          }
        }
        sheet.commit();
      }
      if (out.destroyed) return;
      await workbook.commit();
    } catch (err) {
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  return out;
}
