import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { messageRecipients, messages } from '../../db/schema/messages.js';

export interface Delivery {
  title: string;
  body: string;
  kind?: 'SYSTEM' | 'ADMIN';
  audience?: 'ALL' | 'SEGMENT' | 'ACCOUNTS';
  segment?: Record<string, unknown> | null;
  senderId?: string | null;
  accountIds: string[];
  /** An event notice's event and variables (notifyEvent), so the inbox can render it per reader. */
  event?: { code: string; vars: Record<string, string> };
}

/**
 * Puts one in-site message into the inboxes of `accountIds`. Call it inside the transaction
 * of the change it reports (an audit outcome, a status change), so the notice exists exactly
 * when the change does. `body` must already be plain text or sanitised HTML.
 */
export async function deliverMessage(tx: Db, delivery: Delivery): Promise<string> {
  const [row] = await tx
    .insert(messages)
    .values({
      title: delivery.title,
      body: delivery.body,
      kind: delivery.kind ?? 'SYSTEM',
      audience: delivery.audience ?? 'ACCOUNTS',
      segment: delivery.segment ?? null,
      senderId: delivery.senderId ?? null,
      eventCode: delivery.event?.code ?? null,
      vars: delivery.event?.vars ?? null,
    })
    .returning({ id: messages.id });
  const ids = [...new Set(delivery.accountIds)];
  // Large segments go in slices so one statement never carries tens of thousands of rows.
  for (let i = 0; i < ids.length; i += 1000) {
    await tx.insert(messageRecipients).values(ids.slice(i, i + 1000).map((accountId) => ({ messageId: row!.id, accountId })));
  }
  return row!.id;
}

/**
 * A bulk send's one in-site message (站内信管理): the batch's message when a run already wrote it,
 * else a new one. Recipients are added slice by slice with `addRecipients`, so a restarted run
 * neither writes the message twice nor loses a slice. Messages are owned here (docs/architecture.md,
 * "Database"); the bulk send calls these in its own transactions.
 */
export async function batchMessage(tx: Db, batchId: string, message: Omit<Delivery, 'accountIds' | 'event'>): Promise<string> {
  const [existing] = await tx.select({ id: messages.id }).from(messages).where(eq(messages.batchId, batchId)).limit(1);
  if (existing) return existing.id;
  const [row] = await tx
    .insert(messages)
    .values({
      title: message.title,
      body: message.body,
      kind: message.kind ?? 'ADMIN',
      audience: message.audience ?? 'ACCOUNTS',
      segment: message.segment ?? null,
      senderId: message.senderId ?? null,
      batchId,
    })
    .returning({ id: messages.id });
  return row!.id;
}

/** Adds accounts to a message's recipients; an account already there is skipped. */
export async function addRecipients(tx: Db, messageId: string, accountIds: readonly string[]): Promise<void> {
  if (!accountIds.length) return;
  await tx
    .insert(messageRecipients)
    .values(accountIds.map((accountId) => ({ messageId, accountId })))
    .onConflictDoNothing();
}

/** Recalls a bulk send's message: inboxes stop showing it. */
export async function recallBatchMessage(tx: Db, batchId: string, at: Date): Promise<void> {
  await tx.update(messages).set({ recalledAt: at }).where(and(eq(messages.batchId, batchId), isNull(messages.recalledAt)));
}
