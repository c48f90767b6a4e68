/**
 * Reads a live-final event stream (docs/live-final.md, "Event stream") with `fetch` and a stream
 * reader, so the chair's and judge's streams can send the realm's Authorization header (the
 * native EventSource cannot); the big screen uses the same reader without a token.
 *
 * - `state` carries the full snapshot: it replaces the previous one, never merged.
 * - `gone` ends the stream for good: no reconnect, the page shows the message.
 * - A lost connection (network down, server restarted, nothing heard for a while) reconnects with
 *   a backoff of 0.5 s doubling to 10 s, with jitter, and re-fetches the state meanwhile.
 * - An answer refused before the stream starts (401/403/404/409 envelope) stops the reader;
 *   `fetchState` is called once so the app's HTTP client does its usual handling (sign-in page,
 *   "signed in elsewhere" dialog), and `error` carries the envelope.
 */
import { useEffect, useRef, useState } from 'react';
import { API_BASE, type LiveEventName, type LiveGoneEvent, type Realm } from '@contest/shared';
import { tokenKeyOf } from '../api';

/** LIVE_EVENTS of @contest/shared, written out: importing it would bring the live-final schemas (zod) along. */
const EVENTS = { state: 'state', gone: 'gone' } as const satisfies Record<LiveEventName, LiveEventName>;

export interface SseMessage {
  event: string;
  data: string;
  id: string | null;
}

/**
 * An incremental parser of the text/event-stream format: feed it chunks as they arrive (split
 * anywhere, even inside a line or a CRLF); it calls `onMessage` for every complete event.
 * Comment lines (`: ping`) are ignored; an event without `event:` is `message`.
 */
export function createSseParser(onMessage: (message: SseMessage) => void): { push(chunk: string): void; reset(): void } {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  let lastId: string | null = null;
  let pendingCr = false;

  const dispatch = () => {
    if (data.length > 0) {
      if (id !== null) lastId = id;
      onMessage({ event: event || 'message', data: data.join('\n'), id: lastId });
    }
    event = '';
    data = [];
    id = null;
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    // `retry:` and unknown fields: ignored (the reader has its own backoff).
  };

  return {
    push(chunk: string) {
      let text = chunk;
      // A CR ended the last chunk: an LF opening this one belongs to it.
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer[i];
        if (ch !== '\n' && ch !== '\r') continue;
        line(buffer.slice(start, i));
        if (ch === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    reset() {
      buffer = '';
      event = '';
      data = [];
      id = null;
      pendingCr = false;
    },
  };
}

/** Backoff before reconnect attempt `attempt` (0-based): 0.5 s doubling to 10 s, times 0.75..1.25. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.75 + random() * 0.5));
}

/** A refusal before the stream started: the server's envelope. */
export interface LiveStreamError {
  status: number;
  message: string;
  reason: string | null;
}

export interface LiveStreamHandlers<T> {
  onState(state: T): void;
  onGone(gone: LiveGoneEvent): void;
  onConnected(connected: boolean): void;
  onError(error: LiveStreamError): void;
}

export interface LiveStreamOptions<T> {
  /** Path under /api, e.g. `/expert/live/sessions/<id>/events`. */
  path: string;
  /** Whose token goes into the Authorization header; null: none (the big screen). */
  realm: Realm | null;
  /** The matching GET: called after a lost connection and once after a refusal. */
  fetchState?: () => Promise<T>;
  /** Tests pass their own. */
  fetch?: typeof fetch;
  random?: () => number;
  storage?: Pick<Storage, 'getItem'>;
  /** Nothing heard (the server pings every 15 s) for this long: the connection counts as lost. */
  silenceMs?: number;
}

/** Statuses that end the reader: the request itself is refused, trying again would not help. */
const FINAL_STATUSES = new Set([401, 403, 404, 409, 410]);

/** Opens the stream and keeps it open until `close()` (or `gone`, or a refusal). */
export function openLiveStream<T>(options: LiveStreamOptions<T>, handlers: LiveStreamHandlers<T>): { close(): void } {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const random = options.random ?? Math.random;
  const silenceMs = options.silenceMs ?? 45_000;
  let closed = false;
  let attempt = 0;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | null = null;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;

  const stop = () => {
    closed = true;
    clearTimeout(retryTimer);
    clearTimeout(silenceTimer);
    controller?.abort();
    reader?.cancel().catch(() => {});
    wake?.();
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    }
  };

  // Back online: try at once instead of waiting out the backoff.
  function onOnline() {
    wake?.();
  }
  // Offline: the open connection counts as lost at once (a browser may keep it open and silent
  // until the silence limit, while the page would still say "connected").
  function onOffline() {
    controller?.abort();
    reader?.cancel().catch(() => {});
  }
  if (typeof window !== 'undefined') {
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
  }

  const refetch = () => {
    if (!options.fetchState) return;
    options.fetchState().then(
      (state) => {
        if (!closed) handlers.onState(state);
      },
      () => {},
    );
  };

  const headers = (): Record<string, string> => {
    const h: Record<string, string> = { Accept: 'text/event-stream' };
    if (options.realm) {
      const storage = options.storage ?? window.localStorage;
      const token = storage.getItem(tokenKeyOf(options.realm));
      if (token) h.Authorization = `Bearer ${token}`;
    }
    return h;
  };

  /** One connection; resolves when it ends. Returns 'final' when the reader must stop. */
  async function connectOnce(): Promise<'lost' | 'final'> {
    controller = new AbortController();
    const signal = controller.signal;
    reader = null;
    const armSilence = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => {
        controller?.abort();
        reader?.cancel().catch(() => {});
      }, silenceMs);
    };
    armSilence();
    let response: Response;
    try {
      response = await doFetch(`${API_BASE}${options.path}`, { headers: headers(), signal, cache: 'no-store', credentials: 'include' });
    } catch {
      return 'lost';
    }
    if (!response.ok || !response.body) {
      if (FINAL_STATUSES.has(response.status)) {
        let message = '';
        let reason: string | null = null;
        try {
          const body = (await response.json()) as { message?: string; data?: { reason?: string } | null };
          message = body.message ?? '';
          reason = body.data?.reason ?? null;
        } catch {
          // Not an envelope: the status alone.
        }
        handlers.onError({ status: response.status, message, reason });
        return 'final';
      }
      return 'lost';
    }

    let result = 'lost' as 'lost' | 'final';
    const parser = createSseParser((message) => {
      if (closed || result === 'final') return;
      if (message.event === EVENTS.state) {
        let state: T;
        try {
          state = JSON.parse(message.data) as T;
        } catch {
          return;
        }
        attempt = 0;
        handlers.onConnected(true);
        handlers.onState(state);
      } else if (message.event === EVENTS.gone) {
        let gone: LiveGoneEvent;
        try {
          gone = JSON.parse(message.data) as LiveGoneEvent;
        } catch {
          gone = { reason: 'REVOKED', message: '' };
        }
        result = 'final';
        handlers.onGone(gone);
        controller?.abort();
      }
    });
    const current = response.body.getReader();
    reader = current;
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await current.read();
        if (done) break;
        armSilence();
        parser.push(decoder.decode(value, { stream: true }));
        if (result === 'final' || closed) break;
      }
    } catch {
      // Aborted or the network dropped: handled below.
    } finally {
      clearTimeout(silenceTimer);
      current.cancel().catch(() => {});
    }
    return result;
  }

  async function run() {
    while (!closed) {
      const outcome = await connectOnce();
      if (closed) return;
      if (outcome === 'final') {
        stop();
        handlers.onConnected(false);
        // Lets the HTTP client do its usual handling of the refusal (the state itself is not shown).
        if (options.fetchState) options.fetchState().catch(() => {});
        return;
      }
      handlers.onConnected(false);
      refetch();
      const delay = reconnectDelay(attempt++, random);
      await new Promise<void>((resolve) => {
        wake = resolve;
        retryTimer = setTimeout(resolve, delay);
      });
      wake = null;
    }
  }
  void run();

  return { close: stop };
}

export interface LiveStream<T> {
  /** The last full snapshot (null until the first arrives). */
  state: T | null;
  /** The stream is open and has delivered its first state. */
  connected: boolean;
  /** Set once the server ended the stream for good (link revoked, session deleted, judge removed). */
  gone: LiveGoneEvent | null;
  /** Set when the stream was refused before it started. */
  error: LiveStreamError | null;
}

/**
 * The hook: `path` null = not connected (e.g. the page waits for the agreement). Changing the
 * path or realm starts a new stream; the state of the old one is dropped.
 */
export function useLiveStream<T>(
  path: string | null,
  options: Omit<LiveStreamOptions<T>, 'path'> & {
    initial?: T | null;
    /** True when `next` is older than `prev` (e.g. a re-fetch answered after a newer event): kept out. */
    isOlder?: (next: T, prev: T) => boolean;
  },
): LiveStream<T> & { setState(state: T): void } {
  const [value, setValue] = useState<LiveStream<T>>({ state: options.initial ?? null, connected: false, gone: null, error: null });
  // The latest options without restarting the stream on every render.
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });
  const { realm } = options;

  useEffect(() => {
    if (!path) return;
    setValue((v) => ({ ...v, connected: false, gone: null, error: null }));
    const { initial: _initial, isOlder: _isOlder, ...rest } = optionsRef.current;
    const stream = openLiveStream<T>(
      { ...rest, path, realm, fetchState: optionsRef.current.fetchState ? () => optionsRef.current.fetchState!() : undefined },
      {
        onState: (state) => setValue((v) => (v.state !== null && optionsRef.current.isOlder?.(state, v.state) ? v : { ...v, state })),
        onGone: (gone) => setValue((v) => ({ ...v, gone, connected: false })),
        onConnected: (connected) => setValue((v) => (v.connected === connected ? v : { ...v, connected })),
        onError: (error) => setValue((v) => ({ ...v, error, connected: false })),
      },
    );
    return () => stream.close();
  }, [path, realm]);

  // A submit answer carries the newer state too: the page may put it in directly.
  const setState = useRef((state: T) =>
    setValue((v) => (v.state !== null && optionsRef.current.isOlder?.(state, v.state) ? v : { ...v, state })),
  ).current;
  return { ...value, setState };
}
