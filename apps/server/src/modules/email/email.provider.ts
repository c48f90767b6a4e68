import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { AppConfig, SmtpConfig } from '../../config/config.js';

export interface EmailMessage {
  to: string;
  subject: string;
  /** Plain text: notices are written as text (templates render email without HTML). */
  text: string;
}

/** What the provider answered for one mail: kept per address in notice_outbox.provider_answer. */
export interface EmailReceipt {
  answer: string;
}

/** One interface for SMTP and the log outbox (docs/rules/content.md, "Delivery"); the outbox never knows which one runs. */
export interface EmailProvider {
  name: string;
  send(message: EmailMessage): Promise<EmailReceipt>;
  /** Closes pooled connections (app close). */
  close?(): void;
}

export interface EmailLogger {
  info(obj: object, msg: string): void;
}

/** An SMTP refusal or a connection failure; `answer` is the server's reply or the socket error. */
export class EmailSendError extends Error {
  override name = 'EmailSendError';
  constructor(
    message: string,
    readonly answer: string,
  ) {
    super(message);
  }
}

export const EMAIL_OUTBOX_FILE = 'email-outbox.jsonl';

/**
 * Without SMTP_HOST nothing leaves the machine: each mail becomes one JSON line in
 * `<dataDir>/email-outbox.jsonl` and a log entry, as the SMS log provider does.
 */
export function createLogEmailProvider(deps: { dataDir: string; from: string; log: EmailLogger }): EmailProvider {
  const file = join(deps.dataDir, EMAIL_OUTBOX_FILE);
  let ready: Promise<unknown> | null = null;
  return {
    name: 'log',
    async send(message) {
      ready ??= mkdir(deps.dataDir, { recursive: true }).catch((err: unknown) => {
        ready = null;
        throw err;
      });
      await ready;
      const record = { time: new Date().toISOString(), from: deps.from, to: message.to, subject: message.subject, text: message.text };
      // One appendFile per line: O_APPEND writes are not interleaved by concurrent senders.
      await appendFile(file, `${JSON.stringify(record)}\n`, 'utf8');
      deps.log.info({ email: { to: record.to, subject: record.subject } }, 'email recorded by the log provider (not sent)');
      return { answer: `logged to ${EMAIL_OUTBOX_FILE}` };
    },
  };
}

const SMTP_TIMEOUT_MS = 15_000;

/**
 * SMTP through nodemailer: one pooled transport per process (a bulk send reuses its connections,
 * closed after 5 s idle), STARTTLS when the server offers it on a plain port, AUTH only when
 * SMTP_USER is set. A refusal or a connection failure throws EmailSendError with the server's
 * answer (the password scrubbed), so the outbox records it and retries.
 */
export function createSmtpEmailProvider(smtp: SmtpConfig, from: string, options: { timeoutMs?: number } = {}): EmailProvider {
  const timeout = options.timeoutMs ?? SMTP_TIMEOUT_MS;
  const transport = createTransport({
    pool: true,
    maxConnections: 2,
    // Idle connections close themselves soon: nothing holds a socket open between sends.
    idleTimeout: 5_000,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 2,
  });
  const secrets = [smtp.password].filter((s): s is string => !!s);
  const scrub = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
  return {
    name: 'smtp',
    async send(message) {
      try {
        const info = await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
        if (info.rejected.length > 0) throw new EmailSendError(`SMTP refused ${message.to}: ${info.response}`, info.response);
        return { answer: `${info.messageId} ${info.response}`.trim().slice(0, 500) };
      } catch (err) {
        if (err instanceof EmailSendError) throw err;
        const e = err as Error & { code?: string; response?: string; responseCode?: number };
        const answer = scrub(e.response ?? [e.code, e.message].filter(Boolean).join(' '));
        throw new EmailSendError(scrub(`SMTP failed: ${e.message}`), answer);
      }
    },
    close() {
      transport.close();
    },
  };
}

/** SMTP when SMTP_HOST is set, else the log outbox. */
export function createEmailProvider(config: AppConfig['email'], deps: { dataDir: string; log: EmailLogger }): EmailProvider {
  if (config.smtp) return createSmtpEmailProvider(config.smtp, config.from);
  return createLogEmailProvider({ dataDir: deps.dataDir, from: config.from, log: deps.log });
}
