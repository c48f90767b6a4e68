/**
 * The app in a child process of the bench, so its memory is measured alone and a client in the
 * bench process sees its answers as a browser would (a server whose event loop is busy cannot
 * delay the client's own reading, as it does when both share one process).
 *
 * The bench file forks itself with an argument (`serve`); the child starts what it serves and
 * calls `serveParent`, the parent gets what the child sent as ready and may `ask` it for named
 * work (table counts, a probe) and `stop` it.
 */
import { fork } from 'node:child_process';

interface Ask {
  id: number;
  type: string;
  payload?: unknown;
}
interface Answer {
  id: number;
  result?: unknown;
  error?: string;
}

export interface ServerProcess<Ready> {
  pid: number;
  ready: Ready;
  ask<T>(type: string, payload?: unknown): Promise<T>;
  /** Lets the child close what it serves and waits for it to exit. */
  stop(): Promise<void>;
}

/** Forks `file` (a bench, run through tsx) with `args`; resolves with what the child sends as ready. */
export async function forkServer<Ready>(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ServerProcess<Ready>> {
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it exits (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = fork(file, args, { execArgv: ['--import', 'tsx', ...profile], stdio: 'inherit', env });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { ready: Ready }).ready));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  let seq = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  child.on('message', (m) => {
    const answer = m as Answer;
    const w = waiting.get(answer.id);
    if (!w) return;
    waiting.delete(answer.id);
    if (answer.error !== undefined) w.reject(new Error(answer.error));
    else w.resolve(answer.result);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
    ready,
    ask<T>(type: string, payload?: unknown) {
      const id = ++seq;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, type, payload } satisfies Ask);
      });
    },
    async stop() {
      child.send({ id: 0, type: 'stop' } satisfies Ask);
      await exited;
    },
  };
}

/** Child side: sends `ready`, answers the parent's asks with `handlers`, and on stop runs `close` and exits. */
export function serveParent<Ready>(ready: Ready, handlers: Record<string, (payload: unknown) => unknown>, close: () => Promise<void>): void {
  process.on('message', async (m) => {
    const ask = m as Ask;
    if (ask.type === 'stop') {
      await close();
      process.exit(0);
    }
    const handler = handlers[ask.type];
    try {
      if (!handler) throw new Error(`no handler for ${ask.type}`);
      process.send!({ id: ask.id, result: await handler(ask.payload) } satisfies Answer);
    } catch (err) {
      process.send!({ id: ask.id, error: err instanceof Error ? err.message : String(err) } satisfies Answer);
    }
  });
  process.send!({ ready });
}
