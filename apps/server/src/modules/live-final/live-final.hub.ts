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
 * session id travels; each instance rebuilds its own streams' snapshots from the database, once
 * per session and kind (the feeds).
 */
export interface LiveHub {
  publish(signal: LiveChangeSignal): Promise<void>;
  /** Listens to one session's changes; answers the unsubscribe. */
  subscribe(sessionId: string, listener: (signal: LiveChangeSignal) => void): () => void;
  /** Resolves once the instance listens (Redis: subscribed). */
  ready(): Promise<void>;
  /**
   * How many change signals of the session this instance has received: a read started at the
   * current generation began after every change signalled so far, so readers of the same
   * generation may share it (`shareRead`).
   */
  generation(sessionId: string): number;
  /**
   * Joins the feed of a session and kind (see `openStream`): after each change the feed builds
   * the snapshot once and offers it to every member. Answers the leave.
   */
  feed(sessionId: string, kind: string, build: () => Promise<unknown>, member: FeedMember): () => void;
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
  const generations = new Map<string, number>();
  const dispatch = (signal: LiveChangeSignal) => {
    // Counted before the feeds hear of it: their reads start at the new generation.
    generations.set(signal.sessionId, (generations.get(signal.sessionId) ?? 0) + 1);
    local.emit(signal.sessionId, signal);
  };

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

  const subscribe = (sessionId: string, listener: (signal: LiveChangeSignal) => void) => {
    local.on(sessionId, listener);
    return () => {
      local.off(sessionId, listener);
    };
  };
  const feed = createFeeds(subscribe);

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
    subscribe,
    feed,
    ready: () => ready,
    generation: (sessionId) => generations.get(sessionId) ?? 0,
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
  /**
   * Which snapshot the stream shows. Streams of one session with the same kind share one
   * snapshot, built once per change: the kind names the role and, where the snapshot differs per
   * person, the person (`chair`, `screen`, `judge:<expertId>`). Sealing rests on it: a kind's
   * snapshot goes to that kind's streams only.
   */
  kind: string;
  res: ServerResponse;
  /** Headers already set on the reply (security headers, request id). */
  headers: Record<string, string | string[] | number | undefined>;
  /** This stream's caller may still see it (their session and permission, the link); throws otherwise. Per stream, before every snapshot. */
  check(): Promise<unknown>;
  /**
   * The kind's snapshot now; throws when no one may see it. It must depend on the session and the
   * kind only, never on the caller: the feed builds with the first stream's function for all.
   */
  build(): Promise<T>;
  /** What to tell the client when `check` or `build` refuses (then the stream ends). Null: an end without a message (logged). */
  gone(err: unknown): LiveGoneEvent | null;
  log: FastifyBaseLogger;
}

/** A snapshot as sent (serialised once for every stream of its kind), or why it could not be built. */
export type BuiltSnapshot = { ok: true; text: string } | { ok: false; err: unknown };

/** One stream in a feed: takes a snapshot whose build started at `seq` (a later build has a larger one). */
export interface FeedMember {
  offer(seq: number, built: Promise<BuiltSnapshot>): void;
}

/** Build order on this instance: a build started later reads a state at least as new. */
let lastSeq = 0;
const nextSnapshotSeq = () => ++lastSeq;

function buildSnapshot<T>(build: () => Promise<T>): Promise<BuiltSnapshot> {
  return build().then(
    (state) => ({ ok: true as const, text: JSON.stringify(state) }),
    (err: unknown) => ({ ok: false as const, err }),
  );
}

/**
 * The feeds of one hub: the open streams of one session and kind on this instance form a feed.
 * After a change the feed builds the snapshot once and offers the same text to each stream
 * (coalesced: a change during a build causes one more build after it). Answers the join, whose
 * result is the leave; the last stream to leave closes the feed.
 */
function createFeeds(subscribe: LiveHub['subscribe']) {
  const feeds = new Map<string, { members: Set<FeedMember>; unsubscribe: () => void }>();
  return (sessionId: string, kind: string, build: () => Promise<unknown>, member: FeedMember): (() => void) => {
    const key = `${sessionId}\n${kind}`;
    let feed = feeds.get(key);
    if (!feed) {
      const members = new Set<FeedMember>();
      let running = false;
      let dirty = false;
      const changed = () => {
        if (running) {
          dirty = true;
          return;
        }
        running = true;
        void (async () => {
          try {
            do {
              dirty = false;
              const seq = nextSnapshotSeq();
              const built = buildSnapshot(build);
              for (const m of members) m.offer(seq, built);
              await built;
            } while (dirty && members.size);
          } finally {
            running = false;
          }
        })();
      };
      feed = { members, unsubscribe: subscribe(sessionId, changed) };
      feeds.set(key, feed);
    }
    const mine = feed;
    mine.members.add(member);
    return () => {
      mine.members.delete(member);
      if (mine.members.size) return;
      mine.unsubscribe();
      if (feeds.get(key) === mine) feeds.delete(key);
    };
  };
}

/**
 * One server-sent-events stream (docs/live-final.md, "Event stream"): the full snapshot first
 * (built for this stream), then after each change of the session the snapshot its feed built
 * once for all streams of its kind, each time after this stream's own `check`; a comment every
 * 15 s; `gone` and the end when the caller may no longer see it. A snapshot older than the one
 * already sent is dropped, so a stream never steps back.
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
  let closed = false;
  let shown = 0;
  let pending: { seq: number; built: Promise<BuiltSnapshot> } | null = null;
  let pumping = false;
  const write = (chunk: string) => {
    if (!closed) res.write(chunk);
  };
  const end = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    leave();
    forget();
    res.end();
  };
  const refuse = (err: unknown) => {
    const gone = o.gone(err);
    if (gone) write(`event: ${LIVE_EVENTS.gone}\ndata: ${JSON.stringify(gone)}\n\n`);
    else o.log.error({ err }, 'live-final: stream snapshot failed');
    end();
  };
  const pump = async (): Promise<void> => {
    pumping = true;
    try {
      while (pending && !closed) {
        const { seq, built } = pending;
        pending = null;
        if (seq <= shown) continue;
        shown = seq;
        try {
          await o.check();
        } catch (err) {
          refuse(err);
          return;
        }
        const snapshot = await built;
        if (!snapshot.ok) {
          refuse(snapshot.err);
          return;
        }
        write(`id: ${++id}\nevent: ${LIVE_EVENTS.state}\ndata: ${snapshot.text}\n\n`);
      }
    } finally {
      pumping = false;
    }
  };
  /** Keeps the newest snapshot offered; the pump sends them in order, one at a time. */
  const offer = (seq: number, built: Promise<BuiltSnapshot>): Promise<void> => {
    if (closed || seq <= shown || (pending && seq <= pending.seq)) return Promise.resolve();
    pending = { seq, built };
    return pumping ? Promise.resolve() : pump();
  };
  const leave = o.hub.feed(o.sessionId, o.kind, o.build, { offer: (seq, built) => void offer(seq, built) });
  const ping = setInterval(() => write(': ping\n\n'), PING_MS);
  const forget = o.hub.track(end);
  res.on('close', end);
  res.on('error', end);
  write('retry: 3000\n\n');
  // Joined first, built second: a change from here on is either in this snapshot or in a later one.
  await offer(nextSnapshotSeq(), buildSnapshot(o.build));
}

/**
 * Shares reads of one session among the callers of one generation (docs/live-final.md, "Event
 * stream"): after a change every feed of the session (the chair, the screens, each judge) and
 * every display stream's token check start at once; a read already in flight that began at the
 * current generation began after the change, so it is as new as a fresh one. Only reads in
 * flight are shared, never a finished one (a snapshot carries the server's time).
 */
export function createSharedReads<T>(hub: Pick<LiveHub, 'generation'>) {
  const inFlight = new Map<string, { generation: number; value: Promise<T> }>();
  return (sessionId: string, key: string, read: () => Promise<T>): Promise<T> => {
    const generation = hub.generation(sessionId);
    const at = `${sessionId}\n${key}`;
    const hit = inFlight.get(at);
    if (hit && hit.generation === generation) return hit.value;
    const value = read();
    inFlight.set(at, { generation, value });
    const forget = () => {
      if (inFlight.get(at)?.value === value) inFlight.delete(at);
    };
    value.then(forget, forget);
    return value;
  };
}
