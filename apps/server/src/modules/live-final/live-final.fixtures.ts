/**
 * Test fixtures of the live final (docs/live-final.md): a final-rubric score of a given total, the
 * app listening on a real port, and a small server-sent-events client. Not a test file: imported
 * by the *.test.ts here.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** A full final-rubric score with this total (every criterion filled in rubric order, 0.5 steps). */
export function split(total: number): Record<string, number> {
  const maxes: [string, number][] = [['innovation', 20], ['feasibility', 20], ['value', 25], ['completeness', 15], ['defense', 20]];
  let left = total;
  const out: Record<string, number> = {};
  for (const [k, max] of maxes) {
    const v = Math.min(max, left);
    out[k] = v;
    left -= v;
  }
  return out;
}

// ---- a real listening server and an SSE client ----------------------------------------------------

export interface Listening {
  port: number;
  close(): Promise<void>;
}

const listening = new WeakMap<object, Listening>();

/** The app listening on a free port (once per app; the app's close ends it and its open streams). */
export async function listen(tt: { app: FastifyInstance }): Promise<Listening> {
  const app = tt.app;
  const known = listening.get(app);
  if (known) return known;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const l = { port: (app.server.address() as AddressInfo).port, close: async () => {} };
  listening.set(app, l);
  return l;
}

export interface SseEvent {
  event: string;
  // The three snapshot kinds and `gone`: tests read them field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

export async function openSse(server: Listening, path: string, headers: Record<string, string> = {}) {
  const events: SseEvent[] = [];
  const waiters: { pred: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void; from: number }[] = [];
  let cursor = 0;
  let endedResolve!: () => void;
  const ended = new Promise<void>((r) => (endedResolve = r));
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, headers: { accept: 'text/event-stream', ...headers } }, resolve);
    req.on('error', reject);
    req.end();
  });
  expect(response.statusCode).toBe(200);
  let buffer = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    let at: number;
    while ((at = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (!data) continue;
      const e = { event, data: JSON.parse(data) };
      events.push(e);
      for (const w of [...waiters]) {
        if (w.pred(e)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(e);
        }
      }
    }
  });
  response.on('end', () => endedResolve());
  response.on('close', () => endedResolve());
  return {
    events,
    response,
    ended,
    /** The first event from the cursor on that matches (waits up to `timeoutMs`, 5 s by default). */
    next(pred: (e: SseEvent) => boolean, timeoutMs = 5000): Promise<SseEvent> {
      const found = events.slice(cursor).find(pred);
      if (found) {
        cursor = events.indexOf(found) + 1;
        return Promise.resolve(found);
      }
      return new Promise<SseEvent>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event on ${path}; got ${JSON.stringify(events.map((e) => e.event))} in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          pred,
          from: cursor,
          resolve: (e) => {
            clearTimeout(timer);
            cursor = events.indexOf(e) + 1;
            resolve(e);
          },
        });
      });
    },
    close() {
      response.destroy();
    },
  };
}

export async function rawGet(server: Listening, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
