import { desc, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { operationRecords } from '../src/db/schema.js';
import type { TestApp } from './helpers.js';

export interface Reply<T = unknown> {
  statusCode: number;
  body: { status: number; code: string; message: string; data: T };
  headers: Record<string, unknown>;
  raw: Buffer;
}

/** One API call with an optional signed-in caller; the envelope parsed when it is JSON. */
export async function api<T = any>(
  t: TestApp,
  method: InjectOptions['method'],
  url: string,
  opts: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply<T>> {
  const res = await t.app.inject({ method, url, headers: opts.headers, payload: opts.body as InjectOptions['payload'] });
  const isJson = String(res.headers['content-type'] ?? '').includes('json');
  return { statusCode: res.statusCode, body: isJson ? res.json() : (undefined as never), headers: res.headers, raw: res.rawPayload };
}

/** Operation records written by one account, newest first. */
export const operationsBy = (t: TestApp, accountId: string) =>
  t.database.db.select().from(operationRecords).where(eq(operationRecords.accountId, accountId)).orderBy(desc(operationRecords.createdAt));
