import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * nginx's part in front of two server instances (deploy/compose.yaml), for the multi-instance test
 * and the deadline-rush bench: requests go to the upstreams in turn, hop-by-hop headers are dropped
 * both ways, and X-Forwarded-For gets the client's socket address appended
 * ($proxy_add_x_forwarded_for), so TRUST_PROXY=1 behind it sees the real client.
 */

/** A request header naming the upstream (its index) to send to, when `pin` is on; not forwarded. */
export const PIN_HEADER = 'x-test-upstream';
/** The answer's header naming the upstream (its index) that served, when `pin` is on. */
export const SERVED_BY_HEADER = 'x-upstream';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

export interface RoundRobinProxyOptions {
  /** Ports of the upstreams on 127.0.0.1. */
  ports: number[];
  /**
   * As nginx does by default (proxy_request_buffering on): the whole request body first, then one
   * request upstream with a Content-Length. Off: the body is piped upstream as it arrives, and one
   * answered before it was all sent (an early 429) is read to its end and dropped here, as nginx
   * does, so the client reads the answer. A function decides per request path, as
   * deploy/nginx.conf does (uploads under /api/attachment/ stream, the rest is buffered).
   */
  buffer: boolean | ((url: string) => boolean);
  /** Honour PIN_HEADER and answer with SERVED_BY_HEADER (tests that need one given instance). */
  pin?: boolean;
  /** Extra headers set on every upstream request (nginx's proxy_set_header). */
  setHeaders?: Record<string, string>;
}

export interface RoundRobinProxy {
  server: Server;
  port: number;
}

/** Sockets that already ignore late errors (kept-alive sockets serve many requests: one listener each). */
const guarded = new WeakSet<Socket>();
function guard(socket: Socket): void {
  if (guarded.has(socket)) return;
  guarded.add(socket);
  socket.on('error', () => {});
}

export function startRoundRobinProxy(options: RoundRobinProxyOptions): Promise<RoundRobinProxy> {
  const { ports, buffer, pin = false, setHeaders = {} } = options;
  // No cap on connections upstream, as nginx: a capped pool would queue page calls behind uploads
  // waiting in an instance's line.
  const agent = new Agent({ keepAlive: true });
  let next = 0;

  const forward = (req: IncomingMessage, res: ServerResponse, index: number, payload: Buffer | null) => {
    const headers: IncomingHttpHeaders = { ...req.headers };
    if (payload) headers['content-length'] = String(payload.length);
    if (pin) delete headers[PIN_HEADER];
    for (const h of HOP_BY_HOP) delete headers[h];
    // nginx's $proxy_add_x_forwarded_for: what the client sent, then the address it connected from.
    const prior = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = prior ? `${String(prior)}, ${req.socket.remoteAddress}` : req.socket.remoteAddress;
    Object.assign(headers, setHeaders);
    const upstream = request({ host: '127.0.0.1', port: ports[index], method: req.method, path: req.url, headers, agent }, (answer) => {
      const back: IncomingHttpHeaders = { ...answer.headers };
      if (pin) back[SERVED_BY_HEADER] = String(index);
      for (const h of HOP_BY_HOP) delete back[h];
      res.writeHead(answer.statusCode ?? 502, back);
      answer.pipe(res);
      if (!payload && !req.complete) {
        // Answered early: the rest of the client's body is read and dropped here, and the
        // upstream connection, left mid-body, is closed once its answer is through.
        req.unpipe(upstream);
        req.resume();
        answer.once('end', () => upstream.destroy());
      }
    });
    // A socket error after its request has let go of it (an early answer, a client gone) must not end the proxy.
    upstream.on('socket', guard);
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    if (payload) upstream.end(payload);
    else req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    const pinned = pin ? req.headers[PIN_HEADER] : undefined;
    const index = typeof pinned === 'string' && /^\d+$/.test(pinned) && Number(pinned) < ports.length ? Number(pinned) : next++ % ports.length;
    if (!(typeof buffer === 'function' ? buffer(req.url ?? '') : buffer)) return forward(req, res, index, null);
    // A streaming proxy turned the instances' early 429s (pieces refused before their body was
    // read) into client connection resets; nginx, buffering, answers them whole.
    const body: Buffer[] = [];
    req.on('data', (b: Buffer) => body.push(b));
    req.on('end', () => forward(req, res, index, Buffer.concat(body)));
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', guard);
  server.on('close', () => agent.destroy());
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}
