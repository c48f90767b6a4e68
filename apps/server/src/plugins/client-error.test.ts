import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_MSG, VALIDATION_MSG } from '@contest/shared';
import { createTestApp, type TestApp } from '../../test/helpers.js';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (docs/security.md, "Input
 * hygiene"): they answer the envelope, not Node's or Fastify's own body. Sent over a real
 * socket: inject() never goes through the parser.
 */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => t?.close());

/** Writes raw bytes, reads until the server closes: status line, headers and the body. */
function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {}); // the server may reset after answering
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      if (!status) return reject(new Error(`no answer: ${JSON.stringify(text.slice(0, 200))}`));
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status, headers, body });
    });
    socket.write(request);
  });
}

describe('requests refused before routing', () => {
  it('a URL longer than the header limit answers 431 with the envelope', async () => {
    const res = await raw(`GET /api/health?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toContain('application/json');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(JSON.parse(res.body)).toEqual({ status: 431, code: 'PAYLOAD_TOO_LARGE', message: CONNECTION_MSG.requestHeadTooLarge, data: null });
  });

  it('so does a page address (not only /api) and an over-long header', async () => {
    const page = await raw(`GET /news/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(page.status).toBe(431);
    expect(JSON.parse(page.body)).toMatchObject({ status: 431, code: 'PAYLOAD_TOO_LARGE' });
    const header = await raw(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nCookie: ${'c'.repeat(20_000)}\r\n\r\n`);
    expect(header.status).toBe(431);
  });

  it('bytes that are not HTTP answer 400 with the envelope', async () => {
    const res = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ status: 400, code: 'BAD_REQUEST', message: VALIDATION_MSG.malformedBody, data: null });
  });

  it('a URL under the limit still reaches the route', async () => {
    const res = await raw(`GET /api/health?q=${'a'.repeat(8_000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(200);
  });
});
