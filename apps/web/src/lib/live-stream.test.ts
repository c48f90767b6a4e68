import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSseParser, openLiveStream, reconnectDelay, type SseMessage } from './live-stream';

describe('createSseParser', () => {
  it('parses events split anywhere across chunks, CRLF included', () => {
    const got: SseMessage[] = [];
    const parser = createSseParser((m) => got.push(m));
    const text = ': ping\r\n\r\nid: 1\r\nevent: state\r\ndata: {"a":\r\ndata: 1}\r\n\r\nevent: gone\ndata: {"reason":"REVOKED"}\n\n';
    for (const ch of text) parser.push(ch);
    expect(got).toEqual([
      { event: 'state', data: '{"a":\n1}', id: '1' },
      { event: 'gone', data: '{"reason":"REVOKED"}', id: '1' },
    ]);
  });

  it('waits for the blank line before dispatching, ignores comments and unknown fields', () => {
    const got: SseMessage[] = [];
    const parser = createSseParser((m) => got.push(m));
    parser.push('event: state\ndata: 1');
    expect(got).toHaveLength(0);
    parser.push('\nretry: 10\nfoo\n: x\n');
    expect(got).toHaveLength(0);
    parser.push('\n');
    expect(got).toEqual([{ event: 'state', data: '1', id: null }]);
  });
});

describe('reconnectDelay', () => {
  it('starts at 0.5 s, doubles, stops at 10 s, with jitter', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6, 9].map((n) => reconnectDelay(n, mid))).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
    expect(reconnectDelay(0, () => 0)).toBe(375);
    expect(reconnectDelay(0, () => 1)).toBe(625);
  });
});

/** A fetch answer whose body the test writes to. */
function streamResponse() {
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      ctrl = c;
    },
  });
  const enc = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    write: (s: string) => ctrl.enqueue(enc.encode(s)),
    end: () => ctrl.close(),
    fail: () => ctrl.error(new TypeError('network')),
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function handlers() {
  return { onState: vi.fn(), onGone: vi.fn(), onConnected: vi.fn(), onError: vi.fn() };
}

describe('openLiveStream', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the realm token, replaces the state with each snapshot', async () => {
    const s = streamResponse();
    const fetchMock = vi.fn().mockResolvedValue(s.response);
    const h = handlers();
    const stream = openLiveStream<{ n: number; x?: number }>(
      { path: '/expert/live/sessions/1/events', realm: 'EXPERT', fetch: fetchMock, storage: { getItem: (k) => (k === 'ExpertToken' ? 'tok' : null) } },
      h,
    );
    await flush();
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/expert/live/sessions/1/events');
    expect((fetchMock.mock.calls[0]![1] as RequestInit).headers).toMatchObject({ Authorization: 'Bearer tok' });
    s.write('id: 1\nevent: state\ndata: {"n":1,"x":2}\n\n');
    await flush();
    s.write('id: 2\nevent: sta');
    await flush();
    s.write('te\ndata: {"n":2}\n\n');
    await flush();
    expect(h.onState.mock.calls.map((c) => c[0])).toEqual([{ n: 1, x: 2 }, { n: 2 }]);
    expect(h.onConnected).toHaveBeenLastCalledWith(true);
    stream.close();
  });

  it('stops for good on gone: no reconnect', async () => {
    vi.useFakeTimers();
    const s = streamResponse();
    const fetchMock = vi.fn().mockResolvedValue(s.response);
    const h = handlers();
    openLiveStream({ path: '/live/display/t/events', realm: null, fetch: fetchMock }, h);
    await vi.advanceTimersByTimeAsync(0);
    expect((fetchMock.mock.calls[0]![1] as RequestInit).headers).not.toHaveProperty('Authorization');
    s.write('event: state\ndata: {}\n\nevent: gone\ndata: {"reason":"REVOKED","message":"大屏链接无效或已撤销"}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.onGone).toHaveBeenCalledWith({ reason: 'REVOKED', message: '大屏链接无效或已撤销' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('reconnects with backoff on network loss and re-fetches the state', async () => {
    vi.useFakeTimers();
    const first = streamResponse();
    const second = streamResponse();
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(first.response)
      .mockRejectedValueOnce(new TypeError('offline'))
      .mockResolvedValueOnce(second.response);
    const fetchState = vi.fn().mockResolvedValue({ n: 9 });
    const h = handlers();
    const stream = openLiveStream({ path: '/p', realm: null, fetch: fetchMock, fetchState, random: () => 0.5 }, h);
    await vi.advanceTimersByTimeAsync(0);
    first.write('event: state\ndata: {"n":1}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    first.fail();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.onConnected).toHaveBeenLastCalledWith(false);
    expect(fetchState).toHaveBeenCalledTimes(1);
    expect(h.onState).toHaveBeenLastCalledWith({ n: 9 });
    // attempt 0: 0.5 s
    await vi.advanceTimersByTimeAsync(499);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    // that one failed: attempt 1 waits 1 s
    await vi.advanceTimersByTimeAsync(999);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    second.write('event: state\ndata: {"n":3}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.onState).toHaveBeenLastCalledWith({ n: 3 });
    expect(h.onConnected).toHaveBeenLastCalledWith(true);
    stream.close();
  });

  it('treats a silent connection as lost', async () => {
    vi.useFakeTimers();
    const first = streamResponse();
    const second = streamResponse();
    const fetchMock = vi.fn().mockResolvedValueOnce(first.response).mockResolvedValueOnce(second.response);
    const h = handlers();
    const stream = openLiveStream({ path: '/p', realm: null, fetch: fetchMock, random: () => 0.5, silenceMs: 1000 }, h);
    await vi.advanceTimersByTimeAsync(0);
    first.write('event: state\ndata: {}\n\n');
    await vi.advanceTimersByTimeAsync(999);
    first.write(': ping\n\n');
    await vi.advanceTimersByTimeAsync(999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1 + 500);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    stream.close();
  });

  it('counts the connection as lost when the browser goes offline, and tries again once back online', async () => {
    vi.useFakeTimers();
    const first = streamResponse();
    const second = streamResponse();
    const fetchMock = vi.fn().mockResolvedValueOnce(first.response).mockResolvedValueOnce(second.response);
    const h = handlers();
    const stream = openLiveStream({ path: '/p', realm: null, fetch: fetchMock, random: () => 0.5 }, h);
    await vi.advanceTimersByTimeAsync(0);
    first.write('event: state\ndata: {}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.onConnected).toHaveBeenLastCalledWith(true);
    window.dispatchEvent(new Event('offline'));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.onConnected).toHaveBeenLastCalledWith(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    stream.close();
  });

  it('stops on a refusal before the stream starts and lets the client handle it', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn().mockResolvedValue(
      new Response(JSON.stringify({ status: 404, code: 'NOT_FOUND', message: '大屏链接无效或已撤销', data: { reason: 'REVOKED' } }), { status: 404 }),
    );
    const fetchState = vi.fn().mockRejectedValue(new Error('404'));
    const h = handlers();
    openLiveStream({ path: '/p', realm: null, fetch: fetchMock, fetchState }, h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.onError).toHaveBeenCalledWith({ status: 404, message: '大屏链接无效或已撤销', reason: 'REVOKED' });
    expect(fetchState).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('retries a server error (503) like a lost connection', async () => {
    vi.useFakeTimers();
    const s = streamResponse();
    const fetchMock = vi.fn().mockResolvedValueOnce(new Response('busy', { status: 503 })).mockResolvedValueOnce(s.response);
    const h = handlers();
    const stream = openLiveStream({ path: '/p', realm: null, fetch: fetchMock, random: () => 0.5 }, h);
    await vi.advanceTimersByTimeAsync(500);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(h.onError).not.toHaveBeenCalled();
    stream.close();
  });
});
