import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Who signed in (AUTH), when the sink asks for it. */
  user: string | null;
  headers: Record<string, string>;
  /** Decoded Subject header. */
  subject: string;
  /** Decoded text body. */
  text: string;
  raw: string;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Waits until `n` mails arrived (or throws after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A local SMTP server that keeps what it receives, for the email tests: plain SMTP on a free
 * port of 127.0.0.1, no STARTTLS (nothing to verify a certificate against), AUTH only when
 * `credentials` are given. `refuse` answers RCPT TO for those addresses with 550.
 */
export async function startSmtpSink(options: { credentials?: { user: string; password: string }; refuse?: string[] } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: options.credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.credentials,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      const c = options.credentials;
      if (c && auth.username === c.user && auth.password === c.password) return callback(null, { user: auth.username });
      const err: SMTPServerError = new Error('Invalid username or password');
      err.responseCode = 535;
      callback(err);
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.includes(address.address)) {
        const err: SMTPServerError = new Error(`Mailbox ${address.address} unavailable`);
        err.responseCode = 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          ...parseMail(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : null,
          raw,
        });
        waiters.splice(0).forEach((w) => w());
        callback(null, 'Message queued by the sink');
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    async waitFor(n, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`the sink got ${mails.length} of ${n} mails`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A free local port with nothing listening on it (SMTP "down"). */
export async function closedPort(): Promise<number> {
  const sink = await startSmtpSink();
  const port = sink.port;
  await sink.close();
  return port;
}

const decodeQ = (text: string) =>
  Buffer.from(
    text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** RFC 2047 encoded words (=?UTF-8?B?...?= / =?UTF-8?Q?...?=); the space between two is dropped. */
const decodeWords = (value: string) =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, enc: string, text: string) => (enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQ(text)));

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return body;
  }
}

/** Headers and the single text part of a message as nodemailer writes a text-only mail. */
function parseMail(raw: string): Pick<ReceivedMail, 'headers' | 'subject' | 'text'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const text = decodeBody(raw.slice(split + 4).replace(/\r\n$/, ''), headers['content-transfer-encoding']);
  return { headers, subject: decodeWords(headers.subject ?? ''), text: text.replace(/\r\n/g, '\n').replace(/\n$/, '') };
}
