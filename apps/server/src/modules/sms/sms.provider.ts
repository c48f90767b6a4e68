import { createHash, createHmac } from 'node:crypto';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SmsKey } from '@contest/shared';
import type { AppConfig } from '../../config/config.js';

export interface SmsMessage {
  /** 11-digit mainland number, without country code. */
  phone: string;
  /** Which template the text follows; gateways with a single configured template ignore it. */
  templateKey: SmsKey | string;
  /** Template variables in order, for gateways that render the text themselves. */
  params: string[];
  /** The full text as the recipient reads it. */
  text: string;
}

/** One interface for every gateway (docs/rules/content.md, "Delivery"); services never know which one runs. */
export interface SmsProvider {
  name: string;
  send(message: SmsMessage): Promise<void>;
}

/** The part of pino (or Fastify's logger) the log provider uses. */
export interface SmsLogger {
  info(obj: object, msg: string): void;
}

export type TencentSmsSettings = NonNullable<AppConfig['sms']['tencent']>;

/** A gateway refused or could not be reached; `code` is the gateway's own error code. */
export class SmsGatewayError extends Error {
  override name = 'SmsGatewayError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const SMS_OUTBOX_FILE = 'sms-outbox.jsonl';

/**
 * Development and test provider: nothing leaves the machine. Each message becomes one JSON
 * line in `<dataDir>/sms-outbox.jsonl` (the e2e journeys read codes from it) and a log entry.
 */
export function createLogSmsProvider(deps: { dataDir: string; log: SmsLogger }): SmsProvider {
  const file = join(deps.dataDir, SMS_OUTBOX_FILE);
  let ready: Promise<unknown> | null = null;
  return {
    name: 'log',
    async send(message) {
      ready ??= mkdir(deps.dataDir, { recursive: true }).catch((err: unknown) => {
        ready = null;
        throw err;
      });
      await ready;
      const record = {
        time: new Date().toISOString(),
        phone: message.phone,
        templateKey: message.templateKey,
        params: message.params,
        text: message.text,
      };
      // One appendFile per line: O_APPEND writes of a short line are not interleaved by
      // concurrent senders (or a second instance sharing the folder).
      await appendFile(file, `${JSON.stringify(record)}\n`, 'utf8');
      deps.log.info({ sms: record }, 'sms recorded by the log provider (not sent)');
    },
  };
}

const TENCENT_SERVICE = 'sms';
const TENCENT_ACTION = 'SendSms';
const TENCENT_VERSION = '2021-01-11';
const TENCENT_TIMEOUT_MS = 10_000;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/**
 * TC3-HMAC-SHA256 signature of a JSON POST (Tencent Cloud API v3). Exported so tests can
 * check what a real gateway would check.
 */
export function signTencentRequest(input: {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  path: string;
  action: string;
  contentType: string;
  body: string;
  timestamp: number;
}): string {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host;x-tc-action';
  const canonicalRequest = [
    'POST',
    input.path,
    '',
    `content-type:${input.contentType}\nhost:${input.host}\nx-tc-action:${input.action.toLowerCase()}\n`,
    signedHeaders,
    sha256Hex(input.body),
  ].join('\n');
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

interface TencentSendSmsResponse {
  Response?: {
    Error?: { Code?: string; Message?: string };
    SendStatusSet?: { Code?: string; Message?: string; PhoneNumber?: string }[];
    RequestId?: string;
  };
}

/**
 * Tencent Cloud SMS (SendSms, API 2021-01-11). The configured template must take two
 * variables: the code and its validity in minutes ({1} and {2}).
 */
export function createTencentSmsProvider(
  settings: TencentSmsSettings,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): SmsProvider {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? TENCENT_TIMEOUT_MS;
  const url = new URL(settings.endpoint);
  // Gateway texts are echoed into our logs; make sure no credential ever rides along.
  const secrets = [settings.secretKey, settings.secretId].filter((s) => s.length > 0);
  const scrub = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
  const fail = (code: string, detail?: string, requestId?: string): SmsGatewayError =>
    new SmsGatewayError(
      code,
      scrub(`Tencent SMS failed: ${code}${detail ? ` (${detail})` : ''}${requestId ? ` [RequestId ${requestId}]` : ''}`),
    );

  return {
    name: 'tencent',
    async send(message) {
      const body = JSON.stringify({
        PhoneNumberSet: [`+86${message.phone}`],
        SmsSdkAppId: settings.sdkAppId,
        SignName: settings.signName,
        TemplateId: settings.templateId,
        TemplateParamSet: message.params,
      });
      const timestamp = Math.floor(Date.now() / 1000);
      const authorization = signTencentRequest({
        secretId: settings.secretId,
        secretKey: settings.secretKey,
        service: TENCENT_SERVICE,
        // fetch sends URL.host as the Host header (port included unless it is the default).
        host: url.host,
        path: url.pathname || '/',
        action: TENCENT_ACTION,
        contentType: JSON_CONTENT_TYPE,
        body,
        timestamp,
      });

      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: {
            Authorization: authorization,
            'Content-Type': JSON_CONTENT_TYPE,
            'X-TC-Action': TENCENT_ACTION,
            'X-TC-Timestamp': String(timestamp),
            'X-TC-Version': TENCENT_VERSION,
            'X-TC-Region': settings.region,
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const name = err instanceof Error ? err.name : 'Error';
        const cause = err instanceof Error && err.cause instanceof Error ? (err.cause as NodeJS.ErrnoException).code : undefined;
        throw fail(name === 'TimeoutError' ? 'TIMEOUT' : 'NETWORK', cause ?? name);
      }

      let payload: TencentSendSmsResponse;
      try {
        payload = (await response.json()) as TencentSendSmsResponse;
      } catch {
        throw fail(response.ok ? 'BAD_RESPONSE' : `HTTP_${response.status}`, 'unreadable response');
      }
      const result = payload.Response;
      if (result?.Error) throw fail(result.Error.Code ?? 'UNKNOWN', result.Error.Message, result.RequestId);
      if (!response.ok) throw fail(`HTTP_${response.status}`, undefined, result?.RequestId);
      const statuses = result?.SendStatusSet ?? [];
      if (statuses.length === 0) throw fail('BAD_RESPONSE', 'no SendStatusSet', result?.RequestId);
      const refused = statuses.find((s) => s.Code !== 'Ok');
      if (refused) throw fail(refused.Code ?? 'UNKNOWN', refused.Message, result?.RequestId);
    },
  };
}

/** The provider named by the configuration (SMS_PROVIDER). */
export function createSmsProvider(
  config: AppConfig['sms'],
  deps: { dataDir: string; log: SmsLogger; fetch?: typeof fetch },
): SmsProvider {
  if (config.provider === 'tencent') {
    // loadConfig already requires these; this guards hand-built configs.
    if (!config.tencent) throw new Error('SMS_PROVIDER=tencent needs the SMS_TENCENT_* settings');
    return createTencentSmsProvider(config.tencent, deps.fetch ? { fetch: deps.fetch } : {});
  }
  return createLogSmsProvider({ dataDir: deps.dataDir, log: deps.log });
}
