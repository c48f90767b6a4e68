/**
 * Upload benchmark: a 50 MB file sent as the web uploader sends it (5 MB pieces, 5 in flight)
 * to the real app over loopback HTTP, then two such files at once (the uploader's 2 concurrent
 * files). The server runs in a child process so its memory is measured alone: prints throughput
 * and the server's peak RSS growth (sampled every 10 ms from /proc), which shows that files
 * are streamed, not held in memory.
 *
 *   node --import tsx bench/upload.bench.ts        (FILE_MB=50 ROUNDS=2 to change the load)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPLOAD_PIECE_SIZE, UPLOAD_PIECES_IN_FLIGHT } from '@contest/shared';

const FILE_MB = Number(process.env.FILE_MB ?? 50);
const ROUNDS = Number(process.env.ROUNDS ?? 2);

interface Ready {
  port: number;
  token: string;
}

/** Child: the whole app on an embedded database in a throwaway DATA_DIR, plus one participant session. */
async function serve(): Promise<void> {
  const { buildApp } = await import('../apps/server/src/app.js');
  const { loadConfig } = await import('../apps/server/src/config/config.js');
  const { signIn } = await import('../apps/server/test/sign-in.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'contest-upload-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const participant = await signIn({ app, config, database: app.deps.database, close: async () => {} }, { realm: 'USER' });
  process.send!({ port: (app.server.address() as { port: number }).port, token: participant.token } satisfies Ready);
  process.on('message', async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Sends one file in pieces, at most UPLOAD_PIECES_IN_FLIGHT at a time; resolves with the final answer. */
async function upload(base: string, token: string, content: Buffer, name: string): Promise<{ complete: boolean; size: number }> {
  const chunks = Math.ceil(content.length / UPLOAD_PIECE_SIZE);
  const id = randomUUID();
  let next = 0;
  let final: { complete: boolean; size: number } | null = null;
  async function worker(): Promise<void> {
    while (next < chunks) {
      const chunk = next++;
      const form = new FormData();
      form.append('origin', 'PRELIM');
      form.append('id', id);
      form.append('name', name);
      form.append('chunks', String(chunks));
      form.append('chunk', String(chunk));
      form.append('file', new Blob([content.subarray(chunk * UPLOAD_PIECE_SIZE, (chunk + 1) * UPLOAD_PIECE_SIZE)]), 'blob');
      const res = await fetch(`${base}/api/attachment/piece/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { status: number; message: string; data: { complete: boolean; size: number } };
      if (body.status !== 200) throw new Error(`piece ${chunk}: ${body.status} ${body.message}`);
      if (body.data.complete) final = body.data;
    }
  }
  await Promise.all(Array.from({ length: UPLOAD_PIECES_IN_FLIGHT }, worker));
  if (!final) throw new Error('upload did not complete');
  return final;
}

async function main(): Promise<void> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['serve'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${ready.port}`;
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(FILE_MB * 1024 * 1024 - 9)]);

  // Warm-up: JIT, connection pool, first-use allocations.
  await upload(base, ready.token, pdf.subarray(0, UPLOAD_PIECE_SIZE * 2), 'warmup.pdf');
  const rows: Array<Record<string, string | number>> = [];
  for (const files of [1, 2]) {
    for (let round = 0; round < ROUNDS; round++) {
      const baseline = rssOf(child.pid!);
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 10);
      const started = performance.now();
      const results = await Promise.all(Array.from({ length: files }, (_, i) => upload(base, ready.token, pdf, `bench-${i}.pdf`)));
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, rssOf(child.pid!));
      if (results.some((r) => r.size !== pdf.length)) throw new Error('stored size differs');
      rows.push({
        files: `${files} x ${FILE_MB} MB`,
        round: round + 1,
        seconds: Number(seconds.toFixed(2)),
        'MB/s': Number(((files * FILE_MB) / seconds).toFixed(1)),
        'server RSS before MB': Math.round(baseline / 2 ** 20),
        'peak growth MB': Math.round((peak - baseline) / 2 ** 20),
      });
    }
  }
  console.log(`\nchunked upload over loopback: ${UPLOAD_PIECE_SIZE / 2 ** 20} MB pieces, ${UPLOAD_PIECES_IN_FLIGHT} in flight per file\n`);
  console.table(rows);
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
}

if (process.argv[2] === 'serve') {
  serve().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
