import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface OutboxLine {
  phone: string;
  params: string[];
}

/**
 * The latest code the log SMS provider "sent" to `phone` after `sentAfter` lines, waiting for
 * the line to appear (the server appends asynchronously).
 */
export async function waitForSmsCode(dataDir: string, phone: string, sentAfter = 0, timeoutMs = 10_000): Promise<string> {
  const file = join(dataDir, 'sms-outbox.jsonl');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
    const mine = lines.slice(sentAfter).map((l) => JSON.parse(l) as OutboxLine).filter((m) => m.phone === phone);
    if (mine.length) return mine.at(-1)!.params[0]!;
    if (Date.now() > deadline) throw new Error(`no SMS for ${phone} in ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many messages the outbox holds now (to wait for the next one only). */
export function outboxLength(dataDir: string): number {
  const file = join(dataDir, 'sms-outbox.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).length : 0;
}
