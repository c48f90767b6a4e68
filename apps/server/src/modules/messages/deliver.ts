import type { Db } from '../../db/client.js';
import { messageRecipients, messages } from '../../db/schema.js';

export interface Delivery {
  title: string;
  body: string;
  kind?: 'SYSTEM' | 'ADMIN';
  audience?: 'ALL' | 'SEGMENT' | 'ACCOUNTS';
  segment?: Record<string, unknown> | null;
  senderId?: string | null;
  accountIds: string[];
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
    })
    .returning({ id: messages.id });
  const ids = [...new Set(delivery.accountIds)];
  // Large segments go in slices so one statement never carries tens of thousands of rows.
  for (let i = 0; i < ids.length; i += 1000) {
    await tx.insert(messageRecipients).values(ids.slice(i, i + 1000).map((accountId) => ({ messageId: row!.id, accountId })));
  }
  return row!.id;
}
