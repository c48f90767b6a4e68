import { describe, expect, it } from 'vitest';
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { batches, beijingDate, beijingTime, compressorQueue, rowsOf, writeXlsx } from './xlsx-stream.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function open(stream: Readable): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await bytesOf(stream)) as unknown as ArrayBuffer);
  return workbook;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fast source (no I/O: only microtasks between rows) counting what was taken from it. */
function counted(n: number) {
  const state = { pulled: 0, closed: false };
  async function* rows() {
    try {
      for (let i = 0; i < n; i++) {
        state.pulled++;
        yield { id: i, text: `row ${i} ${(i * 7919) % 10007}`, pad: 'x'.repeat(40) };
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, rows: rows() };
}
const countedColumns = [
  { header: 'ID', key: 'id' },
  { header: 'Text', key: 'text' },
  { header: 'Pad', key: 'pad' },
];

/** Waits until `read()` stops changing (a pause of 300 ms) or `maxMs` pass; returns the last value. */
async function settled(read: () => number, maxMs = 5000): Promise<number> {
  const start = Date.now();
  let last = read();
  for (;;) {
    await sleep(300);
    const now = read();
    if (now === last || Date.now() - start > maxMs) return now;
    last = now;
  }
}

describe('writeXlsx', () => {
  it('writes the declared columns and rows, cell by cell, with a bold header', async () => {
    async function* rows() {
      yield { name: '张三', count: 3, at: beijingTime(new Date('2025-05-01T02:00:00Z')), note: null };
      yield { name: 'Li', count: 0, at: '', note: 'a "quoted" <b>&</b>' };
      yield { count: 12.5, extra: 'ignored: no column' };
    }
    const workbook = await open(
      writeXlsx([
        {
          name: '名单',
          columns: [
            { header: '姓名', key: 'name', width: 20 },
            { header: '数量', key: 'count' },
            { header: '时间', key: 'at', width: 22 },
            { header: '备注', key: 'note' },
          ],
          rows: rows(),
        },
      ]),
    );
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['名单']);
    const sheet = workbook.getWorksheet('名单')!;
    expect(sheet.rowCount).toBe(4);
    const cells = (r: number) => [1, 2, 3, 4].map((c) => sheet.getRow(r).getCell(c).value);
    expect(cells(1)).toEqual(['姓名', '数量', '时间', '备注']);
    expect(cells(2)).toEqual(['张三', 3, '2025-05-01 10:00:00', null]);
    // An empty string is an empty cell: it reads back as null, like a missing value.
    expect(cells(3)).toEqual(['Li', 0, null, 'a "quoted" <b>&</b>']);
    expect(cells(4)).toEqual([null, 12.5, null, null]);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(1).font?.bold).toBeFalsy();
    expect(sheet.getColumn(1).width).toBe(20);
    expect(sheet.getColumn(3).width).toBe(22);
  });

  it('writes several sheets one after another, reading each source only when its turn comes', async () => {
    const log: string[] = [];
    async function* source(name: string, n: number) {
      log.push(`${name} start`);
      for (let i = 1; i <= n; i++) yield { n: i, label: `${name}-${i}` };
      log.push(`${name} end`);
    }
    const workbook = await open(
      writeXlsx([
        { name: '报名信息', columns: [{ header: '序号', key: 'n' }, { header: '名称', key: 'label' }], rows: source('a', 3) },
        { name: 'Empty', columns: [{ header: 'X', key: 'x' }], rows: [] },
        { name: '初赛材料', columns: [{ header: '名称', key: 'label' }, { header: '序号', key: 'n' }], rows: source('b', 1500) },
      ]),
    );
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['报名信息', 'Empty', '初赛材料']);
    const [first, empty, second] = workbook.worksheets;
    expect(first!.getSheetValues().slice(1).map((r) => (r as unknown[]).slice(1))).toEqual([
      ['序号', '名称'],
      [1, 'a-1'],
      [2, 'a-2'],
      [3, 'a-3'],
    ]);
    expect(empty!.rowCount).toBe(1);
    expect(empty!.getRow(1).getCell(1).value).toBe('X');
    expect(second!.rowCount).toBe(1501);
    expect(second!.getRow(1).getCell(1).font?.bold).toBe(true);
    expect([2, 1000, 1501].map((r) => [second!.getRow(r).getCell(1).value, second!.getRow(r).getCell(2).value])).toEqual([
      ['b-1', 1],
      ['b-999', 999],
      ['b-1500', 1500],
    ]);
  });

  it('stops reading rows while the client does not read (backpressure)', async () => {
    // 100 000 rows (about 10 MB of sheet XML). Ignoring backpressure, the writer takes them
    // all at once: nothing between two rows gives the client a say.
    const { state, rows } = counted(100_000);
    const stream = writeXlsx([{ name: 'S', columns: countedColumns, rows }]);
    const paused = await settled(() => state.pulled);
    // What the pipeline holds: the output's buffer and 1 MiB in front of the compressor, a
    // few thousand of these rows.
    expect(paused).toBeGreaterThan(0);
    expect(paused).toBeLessThan(20_000);
    expect(state.closed).toBe(false);
    stream.destroy();
    await sleep(50);
    expect(state.closed).toBe(true);
  });

  it('resumes when the client reads again, and the file is complete', async () => {
    const { state, rows } = counted(30_000);
    const stream = writeXlsx([{ name: 'S', columns: countedColumns, rows }], { maxPendingBytes: 128 * 1024, highWaterMark: 16 * 1024 });
    const paused = await settled(() => state.pulled);
    expect(paused).toBeLessThan(10_000);
    const workbook = await open(stream);
    expect(state.pulled).toBe(30_000);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(30_001);
    for (const i of [0, paused - 1, paused, paused + 1, 29_999]) {
      expect((sheet.getRow(i + 2).values as unknown[]).slice(1), `row ${i}`).toEqual([i, `row ${i} ${(i * 7919) % 10007}`, 'x'.repeat(40)]);
    }
  });

  it("finds the queue in front of ExcelJS's compressor (internal API: an upgrade that moves it must fail here)", async () => {
    const out = new PassThrough();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out });
    const sheet = workbook.addWorksheet('S');
    sheet.columns = [{ header: 'A', key: 'a' }];
    sheet.getRow(1).commit();
    const queue = compressorQueue(sheet);
    expect(queue).toBeDefined();
    // Nobody reads `out`: what the sheet writes piles up in that queue, where it is measured.
    for (let i = 0; i < 20_000; i++) sheet.addRow({ a: `row ${i} ${'y'.repeat(50)}` }).commit();
    const state = queue as unknown as { _writableState: { length: number }; _readableState: { length: number } };
    expect(state._writableState.length + state._readableState.length).toBeGreaterThan(512 * 1024);
    out.destroy();
  });

  it('stops reading the source when the stream is destroyed (client gone)', async () => {
    const { state, rows } = counted(1_000_000);
    const stream = writeXlsx([{ name: 'S', columns: countedColumns, rows }]);
    let received = 0;
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > 64 * 1024 && !stream.destroyed) stream.destroy();
    });
    await new Promise((resolve) => stream.on('close', resolve));
    await sleep(100);
    const atAbort = state.pulled;
    expect(state.closed).toBe(true);
    await sleep(300);
    expect(state.pulled).toBe(atAbort);
    expect(atAbort).toBeLessThan(100_000);
  });

  it('destroys the stream with the source error', async () => {
    async function* failing() {
      yield { a: 1 };
      throw new Error('database went away');
    }
    const stream = writeXlsx([{ name: 'S', columns: [{ header: 'A', key: 'a' }], rows: failing() }]);
    await expect(bytesOf(stream)).rejects.toThrow('database went away');
  });
});

describe('batches', () => {
  it('reads up to the total in batches, giving fetch the offset, limit and last row', async () => {
    const data = Array.from({ length: 25 }, (_, i) => ({ id: i }));
    const calls: Array<[number, number, number | undefined]> = [];
    const read = batches(
      async (offset, limit, last: { id: number } | undefined) => {
        calls.push([offset, limit, last?.id]);
        return data.slice(offset, offset + limit);
      },
      23,
      10,
    );
    const seen: number[][] = [];
    for await (const batch of read) seen.push(batch.map((r) => r.id));
    expect(calls).toEqual([
      [0, 10, undefined],
      [10, 10, 9],
      [20, 3, 19],
    ]);
    expect(seen.flat()).toEqual(data.slice(0, 23).map((r) => r.id));
  });

  it('stops at a short batch and reads nothing for a total of 0', async () => {
    let calls = 0;
    const fetch = async (offset: number) => {
      calls++;
      return offset === 0 ? [1, 2, 3] : [];
    };
    const all: number[] = [];
    for await (const batch of batches(fetch, 100, 10)) all.push(...batch);
    expect(all).toEqual([1, 2, 3]);
    expect(calls).toBe(1);
    for await (const _ of batches(fetch, 0)) throw new Error('no batch expected');
    expect(calls).toBe(1);
  });

  it('rowsOf maps batched rows; stopping early stops fetching', async () => {
    let fetched = 0;
    const read = batches(async (offset, limit) => {
      fetched++;
      return Array.from({ length: limit }, (_, i) => offset + i);
    }, 1000, 10);
    const out: string[] = [];
    for await (const row of rowsOf(read, (n) => ({ n: `#${n}` }))) {
      out.push(row.n);
      if (out.length === 15) break;
    }
    expect(out.at(-1)).toBe('#14');
    expect(fetched).toBe(2);
  });
});

describe('Beijing time', () => {
  it('formats instants as Beijing wall-clock time', () => {
    expect(beijingTime(new Date('2025-05-02T15:30:05.123Z'))).toBe('2025-05-02 23:30:05');
    expect(beijingTime(new Date('2025-05-02T16:10:00Z'))).toBe('2025-05-03 00:10:00');
    expect(beijingTime(null)).toBe('');
    expect(beijingTime(undefined)).toBe('');
    expect(beijingDate(new Date('2025-12-31T16:00:00Z'))).toBe('2026-01-01');
  });
});
