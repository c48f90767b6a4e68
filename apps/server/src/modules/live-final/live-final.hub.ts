import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { LIVE_EVENTS, type LiveChangeSignal, type LiveGoneEvent } from '@contest/shared';

/** Seconds between the comment lines that keep proxies from closing an idle stream. */
const PING_MS = 15_000;

/**
 * How instances tell each other that a live session changed (docs/live-final.md, "Event
 * stream"): a Redis channel when Redis is configured, an in-process emitter otherwise. Only the
 * session id travels; each instance recomputes its own streams' snapshots from the database.
 */
export interface LiveHub {
  publish(signal: LiveChangeSignal): Promise<void>;
  /** Listens to one session's changes; answers the unsubscribe. */
  subscribe(sessionId: string, listener: (signal: LiveChangeSignal) => void): () => void;
  /** Resolves once the instance listens (Redis: subscribed). */
  ready(): Promise<void>;
  /** Keeps an open stream's end, so `endAll` can end it; answers the forget. */
  track(end: () => void): () => void;
  /** Open streams on this instance (tests). */
  open(): number;
  /** Ends every open stream (before the server closes: an open stream would hold it). */
  endAll(): void;
  close(): Promise<void>;
}

export function createLiveHub(opts: { redis: Redis | null; prefix: string; log: FastifyBaseLogger }): LiveHub {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const streams = new Set<() => void>();
  const channel = `${opts.prefix}live-final`;
  const dispatch = (signal: LiveChangeSignal) => local.emit(signal.sessionId, signal);

  let subscriber: Redis | null = null;
  let ready: Promise<void> = Promise.resolve();
  if (opts.redis) {
    // Its own connection (a subscribed connection takes no other command); ioredis resubscribes after a reconnect.
    subscriber = opts.redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: null });
    subscriber.on('message', (ch: string, message: string) => {
      if (ch !== channel) return;
      try {
        dispatch(JSON.parse(message) as LiveChangeSignal);
      } catch (err) {
        opts.log.warn({ err }, 'live-final: bad signal');
      }
    });
    subscriber.on('error', (err) => opts.log.warn({ err }, 'live-final: subscriber error'));
    const sub = subscriber;
    ready = sub
      .connect()
      .then(() => sub.subscribe(channel))
      .then(
      () => undefined,
      (err: unknown) => opts.log.error({ err }, 'live-final: subscribe failed'),
    );
  }

  return {
    async publish(signal) {
      if (!opts.redis) {
        dispatch(signal);
        return;
      }
      try {
        await opts.redis.publish(channel, JSON.stringify(signal));
      } catch (err) {
        // Redis down: this instance's streams still move; the others catch up at their next change or reconnect.
        opts.log.warn({ err }, 'live-final: publish failed');
        dispatch(signal);
      }
    },
    subscribe(sessionId, listener) {
      local.on(sessionId, listener);
      return () => local.off(sessionId, listener);
    },
    ready: () => ready,
    track(end) {
      streams.add(end);
      return () => streams.delete(end);
    },
    open: () => streams.size,
    endAll() {
      for (const end of [...streams]) end();
    },
    async close() {
      for (const end of [...streams]) end();
      local.removeAllListeners();
      if (subscriber) {
        subscriber.disconnect();
        subscriber = null;
      }
    },
  };
}

export interface StreamOptions<T> {
  hub: LiveHub;
  sessionId: string;
  res: ServerResponse;
  /** Headers already set on the reply (security headers, request id). */
  headers: Record<string, string | string[] | number | undefined>;
  /** The snapshot of this stream now; throws when the caller may no longer see it. */
  compute(): Promise<T>;
  /** What to tell the client when `compute` refuses (then the stream ends). Null: rethrow as an end without a message. */
  gone(err: unknown): LiveGoneEvent | null;
  log: FastifyBaseLogger;
}

/**
 * One server-sent-events stream (docs/live-final.md, "Event stream"): the full snapshot first,
 * then a new one after each change of the session (coalesced: a change during a computation
 * causes one more), a comment every 15 s, `gone` and the end when the caller may no longer see it.
 */
export async function openStream<T>(o: StreamOptions<T>): Promise<void> {
  const { res } = o;
  const headers: Record<string, string | string[] | number> = {};
  for (const [k, v] of Object.entries(o.headers)) if (v !== undefined && k.toLowerCase() !== 'content-length') headers[k] = v;
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let id = 0;
  let running = false;
  let dirty = false;
  let closed = false;
  const write = (chunk: string) => {
    if (!closed) res.write(chunk);
  };
  const end = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    unsubscribe();
    forget();
    res.end();
  };
  const send = async (): Promise<void> => {
    if (running) {
      dirty = true;
      return;
    }
    running = true;
    try {
      do {
        dirty = false;
        let state: T;
        try {
          state = await o.compute();
        } catch (err) {
          const gone = o.gone(err);
          if (gone) write(`event: ${LIVE_EVENTS.gone}\ndata: ${JSON.stringify(gone)}\n\n`);
          else o.log.error({ err }, 'live-final: stream snapshot failed');
          end();
          return;
        }
        write(`id: ${++id}\nevent: ${LIVE_EVENTS.state}\ndata: ${JSON.stringify(state)}\n\n`);
      } while (dirty && !closed);
    } finally {
      running = false;
    }
  };
  const unsubscribe = o.hub.subscribe(o.sessionId, () => void send());
  const ping = setInterval(() => write(': ping\n\n'), PING_MS);
  const forget = o.hub.track(end);
  res.on('close', end);
  res.on('error', end);
  write('retry: 3000\n\n');
  await send();
}
