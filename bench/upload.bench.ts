/**
 * Upload benchmark: one large file (1 GB by default) sent as the web uploader sends it (5 MB
 * pieces, 5 in flight, the last piece alone) to the real app over loopback HTTP, set beside the
 * disk's own write speed measured in the same run: the same bytes written with Node's fs to the
 * same file system, with and without a final fsync. The server runs in a child process so its
 * memory is measured alone: its peak RSS growth during the upload (sampled every 10 ms from
 * /proc) shows that files are streamed, not held in memory. Targets: upload at least 70% of the
 * disk's speed, RSS growth under 100 MB.
 *
 * Beside them, the machine's own ceiling for this traffic: a bare node:http server (child
 * process) that writes each raw 5 MB body into its slot of one file and does nothing else (no
 * multipart, session, checks, markers or hash), sent the same pieces by the same client. The
 * share of that ceiling the app reaches is what the app's own work costs; the rest of the gap to
 * the disk is loopback HTTP and the client on the same cores. BENCH_CPU_PROF=<dir> profiles the
 * app's process (bench/support/cpu-profile-top.ts summarises it).
 *
 *   node --import tsx bench/upload.bench.ts
 *   UPLOAD_BENCH_MB=1024 UPLOAD_BENCH_FILES=1 node --import tsx bench/upload.bench.ts
 *
 * The generated content is made piece by piece from one random 5 MB block (each piece stamped
 * with its number), so neither side ever holds the whole file.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPLOAD_PIECE_SIZE, UPLOAD_PIECES_IN_FLIGHT } from '@contest/shared';
import { forkServer, serveParent } from './support/child.js';
import { runMain } from './support/run.js';
import { cpuOfPid, rssOfPid, sampleMemory } from './support/memory.js';

const FILE_MB = Number(process.env.UPLOAD_BENCH_MB ?? process.env.FILE_MB ?? 1024);
const FILES = Number(process.env.UPLOAD_BENCH_FILES ?? 1);
/** raw (the web uploader's way: the piece's bytes, fields in the query string) or multipart (the form). */
const BODY = process.env.UPLOAD_BENCH_BODY === 'multipart' ? 'multipart' : 'raw';
const FILE_BYTES = FILE_MB * 1024 * 1024;
const MIB = 2 ** 20;

interface Ready {
  port: number;
  token: string;
  dataDir: string;
}

/** Child: the whole app on an embedded database in a throwaway DATA_DIR, plus one participant session. */
async function serve(): Promise<void> {
  const { startBenchApp } = await import('./support/app.js');
  const { signIn } = await import('../apps/server/test/sign-in.js');
  const { UPLOAD_RULES } = await import('@contest/shared');
  // The widest ceiling (PRELIM) is 500 MB; the bench measures the path with larger files, so it
  // raises that ceiling in its own server process only.
  UPLOAD_RULES.PRELIM.maxBytes = Math.max(UPLOAD_RULES.PRELIM.maxBytes, FILE_BYTES);
  const bench = await startBenchApp({ dataDir: process.env.UPLOAD_BENCH_DIR, dirPrefix: 'contest-upload-bench-' });
  const { app, config } = bench;
  const port = Number(new URL(await bench.listen()).port);
  const participant = await signIn({ app, config, database: app.deps.database, close: async () => {} }, { realm: 'USER' });
  serveParent<Ready>({ port, token: participant.token, dataDir: bench.dataDir }, {}, () => bench.close());
}

/** Child: the ceiling, a bare server writing each raw piece body into its slot of one file. */
async function serveCeiling(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'contest-upload-ceiling-'));
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://bench');
    const chunk = Number(url.searchParams.get('chunk'));
    const path = join(dataDir, `${url.searchParams.get('id')}.bin`);
    void open(path, 'a+').then((handle) => {
      const out = handle.createWriteStream({ start: chunk * UPLOAD_PIECE_SIZE, highWaterMark: 1 << 20 });
      req.pipe(out);
      out.on('finish', () => res.end('{"status":200}'));
      out.on('error', () => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serveParent<Ready>({ port: (server.address() as AddressInfo).port, token: '', dataDir }, {}, async () => {
    server.close();
    await rm(dataDir, { recursive: true, force: true });
  });
}

/** The generated file, one piece at a time: a shared random block stamped with the piece number. */
function makePieces(fileBytes: number) {
  const block = randomBytes(UPLOAD_PIECE_SIZE);
  Buffer.from('%PDF-1.7\n').copy(block);
  const chunks = Math.ceil(fileBytes / UPLOAD_PIECE_SIZE);
  return {
    chunks,
    piece(chunk: number): Buffer {
      const size = Math.min(UPLOAD_PIECE_SIZE, fileBytes - chunk * UPLOAD_PIECE_SIZE);
      const buf = Buffer.from(block.subarray(0, size));
      // Keeps the %PDF header of piece 0; every other piece differs from its neighbours.
      if (chunk > 0) buf.writeUInt32BE(chunk, 0);
      return buf;
    },
  };
}

type Pieces = ReturnType<typeof makePieces>;

/** Writes the same bytes with Node's fs, as fast as the file system takes them. */
async function diskWrite(dir: string, pieces: Pieces, fsync: boolean): Promise<number> {
  const path = join(dir, `disk-${randomUUID()}.bin`);
  const started = performance.now();
  const handle = await open(path, 'wx');
  const out = createWriteStream('', { fd: handle.fd, autoClose: false, highWaterMark: 1 << 20 });
  for (let chunk = 0; chunk < pieces.chunks; chunk++) {
    if (!out.write(pieces.piece(chunk))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  if (fsync) await handle.sync();
  await handle.close();
  const seconds = (performance.now() - started) / 1000;
  await rm(path, { force: true });
  return seconds;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * One piece request, as the web uploader sends it (raw: the bytes, fields in the query string) or
 * as a form (multipart: fields first, then the file part).
 */
function postPiece(port: number, token: string, fields: Record<string, string>, piece: Buffer): Promise<{ complete: boolean; size: number }> {
  const boundary = `----bench${randomUUID().replaceAll('-', '')}`;
  let head = '';
  let tail = '';
  let path = '/api/attachment/piece/upload';
  let contentType = 'application/octet-stream';
  if (BODY === 'multipart') {
    for (const [name, value] of Object.entries(fields)) {
      head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    }
    head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    tail = `\r\n--${boundary}--\r\n`;
    contentType = `multipart/form-data; boundary=${boundary}`;
  } else {
    path += `?${new URLSearchParams(fields).toString()}`;
  }
  const length = Buffer.byteLength(head) + piece.length + Buffer.byteLength(tail);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': contentType,
          'content-length': length,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () => {
          const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { status: number; message: string; data: { complete: boolean; size: number } };
          if (body.status !== 200) reject(new Error(`piece ${fields.chunk}: ${body.status} ${body.message}`));
          else resolve(body.data);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (head) req.write(head);
    req.write(piece);
    req.end(tail);
  });
}

/** One raw piece to the ceiling server. */
function postRaw(port: number, id: string, chunk: number, piece: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: `/piece?id=${id}&chunk=${chunk}`, agent, headers: { 'content-length': piece.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(piece);
  });
}

/** The same file sent raw to the ceiling server, as many pieces at once as the app gets. */
async function uploadRaw(port: number, pieces: Pieces): Promise<void> {
  const id = randomUUID();
  let next = 0;
  async function worker(): Promise<void> {
    while (next < pieces.chunks) {
      const chunk = next++;
      await postRaw(port, id, chunk, pieces.piece(chunk));
    }
  }
  await Promise.all(Array.from({ length: UPLOAD_PIECES_IN_FLIGHT }, worker));
}

/** Sends one file in pieces, at most UPLOAD_PIECES_IN_FLIGHT at a time, the last one alone after the rest. */
async function upload(port: number, token: string, pieces: Pieces, name: string): Promise<{ complete: boolean; size: number; joinSeconds: number }> {
  const id = randomUUID();
  const send = (chunk: number) =>
    postPiece(port, token, { origin: 'PRELIM', id, name, chunks: String(pieces.chunks), chunk: String(chunk) }, pieces.piece(chunk));
  let next = 0;
  const last = pieces.chunks - 1;
  async function worker(): Promise<void> {
    while (next < last) await send(next++);
  }
  await Promise.all(Array.from({ length: UPLOAD_PIECES_IN_FLIGHT }, worker));
  const lastStarted = performance.now();
  const final = await send(last);
  if (!final.complete) throw new Error('upload did not complete');
  return { ...final, joinSeconds: (performance.now() - lastStarted) / 1000 };
}

const mbps = (bytes: number, seconds: number) => Number((bytes / MIB / seconds).toFixed(1));

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'contest-upload-bench-'));
  const child = await forkServer<Ready>(fileURLToPath(import.meta.url), ['serve'], { ...process.env, UPLOAD_BENCH_DIR: dataDir });
  const { ready } = child;
  const pieces = makePieces(FILE_BYTES);
  const total = FILE_BYTES * FILES;

  // Warm-up: JIT, connection pool, first-use allocations.
  await upload(ready.port, ready.token, makePieces(UPLOAD_PIECE_SIZE * 3), 'warmup.pdf');

  // Into the server's own DATA_DIR (the same file system the uploads land on). Written once
  // before and once after the upload, the faster run counting: the first write of a run often pays
  // for the page cache being filled or for writeback left by an earlier run, and the target must
  // not be met by measuring the disk at its worst.
  const diskBefore = await diskWrite(dataDir, pieces, false);
  const diskSyncSeconds = await diskWrite(dataDir, pieces, true);

  const sampler = sampleMemory(10, () => rssOfPid(child.pid));
  const serverCpu = cpuOfPid(child.pid);
  const clientCpu = process.cpuUsage();
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: FILES }, (_, i) => upload(ready.port, ready.token, pieces, `bench-${i}.pdf`)));
  const seconds = (performance.now() - started) / 1000;
  const serverAfter = cpuOfPid(child.pid);
  const client = process.cpuUsage(clientCpu);
  const { base: baseline, peak } = sampler.stop();
  if (results.some((r) => r.size !== FILE_BYTES)) throw new Error('stored size differs');
  const diskSeconds = Math.min(diskBefore, await diskWrite(dataDir, pieces, false));
  await child.stop();

  // The ceiling, after the app (same client, same pieces, same file system), best of 2.
  const ceilingChild = await forkServer<Ready>(fileURLToPath(import.meta.url), ['ceiling']);
  await uploadRaw(ceilingChild.ready.port, makePieces(UPLOAD_PIECE_SIZE * 3));
  let ceilingSeconds = Infinity;
  for (let run = 0; run < 2; run++) {
    const t = performance.now();
    await Promise.all(Array.from({ length: FILES }, () => uploadRaw(ceilingChild.ready.port, pieces)));
    ceilingSeconds = Math.min(ceilingSeconds, (performance.now() - t) / 1000);
  }
  await ceilingChild.stop();

  const app = mbps(total, seconds);
  const ceiling = mbps(total, ceilingSeconds);
  const disk = mbps(FILE_BYTES, diskSeconds);
  const diskSync = mbps(FILE_BYTES, diskSyncSeconds);
  const growth = Math.round((peak - baseline) / MIB);
  console.log(`\nchunked upload over loopback: ${FILES} x ${FILE_MB} MB, ${UPLOAD_PIECE_SIZE / MIB} MB pieces (${BODY} bodies), ${UPLOAD_PIECES_IN_FLIGHT} in flight per file\n`);
  console.table([
    { what: 'upload through the app', seconds: Number(seconds.toFixed(2)), 'MB/s': app },
    { what: 'ceiling: bare node:http, raw bodies (best of 2)', seconds: Number(ceilingSeconds.toFixed(2)), 'MB/s': ceiling },
    { what: 'fs write, same bytes (best of 2)', seconds: Number(diskSeconds.toFixed(2)), 'MB/s': disk },
    { what: 'fs write + fsync', seconds: Number(diskSyncSeconds.toFixed(2)), 'MB/s': diskSync },
  ]);
  console.log(`app / fs write: ${Math.round((app / disk) * 100)}%   app / fs write + fsync: ${Math.round((app / diskSync) * 100)}%   (target >= 70%)`);
  console.log(`app / ceiling: ${Math.round((app / ceiling) * 100)}%   ceiling / fs write: ${Math.round((ceiling / disk) * 100)}%`);
  console.log(`of which the last piece (join, hash, store): ${Math.max(...results.map((r) => r.joinSeconds)).toFixed(2)} s`);
  console.log(`server RSS: ${Math.round(baseline / MIB)} MB before, peak growth ${growth} MB   (target < 100 MB)`);
  // Where the 2 cores went during the upload (100% = one core): what bounds the rate on this machine.
  const share = (cpuSeconds: number) => `${Math.round((cpuSeconds / seconds) * 100)}%`;
  console.log(
    `CPU during the upload: server user ${share(serverAfter.user - serverCpu.user)} + system ${share(serverAfter.system - serverCpu.system)}, ` +
      `bench client user ${share(client.user / 1e6)} + system ${share(client.system / 1e6)}`,
  );
  agent.destroy();
}

runMain(process.argv[2] === 'serve' ? serve : process.argv[2] === 'ceiling' ? serveCeiling : main);
