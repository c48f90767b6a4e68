/**
 * The outbox's part of retention (docs/retention.md): an anonymised person's SMS and e-mail rows
 * lose the phone or address and the text sent (it may hold their name); one not sent yet is
 * failed rather than sent to a removed address, except a notice queued within the last hour
 * (the answer to their own deletion request, sent as the anonymisation starts).
 */
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { noticeOutbox } from '../../db/schema/notices.js';

export async function anonymiseOutboxOf(tx: Db, accountId: string): Promise<void> {
  await tx
    .update(noticeOutbox)
    .set({
      recipient: '',
      params: [],
      text: '',
      subject: null,
      providerAnswer: null,
      status: sql`case when ${noticeOutbox.status} in ('QUEUED', 'SENDING') then 'FAILED' else ${noticeOutbox.status} end`,
      lastError: sql`case when ${noticeOutbox.status} in ('QUEUED', 'SENDING') then '个人信息已删除' else ${noticeOutbox.lastError} end`,
    })
    .where(
      and(
        eq(noticeOutbox.accountId, accountId),
        or(inArray(noticeOutbox.status, ['SENT', 'FAILED']), lt(noticeOutbox.createdAt, sql`now() - interval '1 hour'`)),
      ),
    );
}
