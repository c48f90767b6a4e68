import {
  BROADCAST_BODY_MAX,
  BROADCAST_MSG as M,
  BROADCAST_SMS_MAX,
  BROADCAST_TITLE_MAX,
  describeSegment,
  maskEmail,
  maskPhone,
  renderBroadcast,
  smsSegments,
  unknownVariables,
  type BroadcastAccount,
  type BroadcastAccountsQuery,
  type BroadcastBatch,
  type BroadcastChannel,
  type BroadcastDetail,
  type BroadcastDraftParsed,
  type BroadcastListQuery,
  type BroadcastPreview,
  type BroadcastRecordsQuery,
  type BroadcastRecordStatus,
  type BroadcastSent,
  type BroadcastStatus,
  type Page,
  type Segment,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { Pii } from '../../lib/pii.js';
import { iso, isoOrNull } from '../admin/admin-util.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { BROADCAST_JOB, variablesOf, type BroadcastJobPayload } from './broadcast.job.js';
import type { BatchListRow, BatchStats, BroadcastRepository, RecordRow, TemplateRow } from './broadcast.repository.js';
import { countSegment, segmentSlice, type Reach } from './segment.js';

/** The durable-jobs call (lib/jobs.ts enqueueJob), in the caller's transaction. */
export type EnqueueJob = (tx: Db, job: { kind: string; payload: Record<string, unknown>; total?: number; dedupeKey?: string; runAt?: Date }) => Promise<string>;

interface Deps {
  db: Db;
  repo: BroadcastRepository;
  enqueueJob: EnqueueJob;
  /** After a commit that queued a job: run it soon. */
  kickJobs?: () => void;
  now?: () => Date;
}

const CHANNEL_NAME: Record<BroadcastChannel, string> = { INSITE: '站内信', SMS: '短信', EMAIL: '邮件' };
const REACH: Record<BroadcastChannel, Reach> = { INSITE: 'ALL', SMS: 'PHONE', EMAIL: 'EMAIL' };
const SAMPLES = 3;

/** A draft with the template's texts filled in and checked for its channel. */
interface Resolved {
  channel: BroadcastChannel;
  segment: Segment;
  title: string;
  /** The in-site/email body, or the SMS text. */
  body: string;
  template: TemplateRow | null;
}

const field = (name: string) => ({ field: name });

/**
 * 站内信管理 and 短信管理 (and email): preview a bulk send, send it as a background job (see
 * broadcast.job.ts), list the batches with their delivery counts, open one with its records,
 * recall an in-site message.
 */
export function createBroadcastService({ db, repo, enqueueJob, kickJobs, now = () => new Date() }: Deps) {
  async function resolve(channel: BroadcastChannel, draft: BroadcastDraftParsed, tx: Db = db): Promise<Resolved> {
    let template: TemplateRow | null = null;
    if (draft.templateId) {
      template = (await repo.bulkTemplate(draft.templateId, tx)) ?? null;
      if (!template) throw badRequest(M.templateInvalid, field('templateId'));
      if (!template.channels.includes(channel)) throw badRequest(M.templateChannelMismatch, field('templateId'));
    }
    // A blank field takes the template's text; a written one wins.
    const title = draft.title || template?.subject || '';
    const body = channel === 'SMS' ? draft.smsText || template?.smsText || '' : draft.body || template?.body || '';
    if (channel === 'SMS') {
      if (!body) throw badRequest(M.smsTextRequired, field('smsText'));
      if ([...body].length > BROADCAST_SMS_MAX) throw badRequest(M.smsTextTooLong, field('smsText'));
      if (title.length > BROADCAST_TITLE_MAX) throw badRequest(M.titleTooLong, field('title'));
    } else {
      if (!title) throw badRequest(M.titleRequired, field('title'));
      if (title.length > BROADCAST_TITLE_MAX) throw badRequest(M.titleTooLong, field('title'));
      if (!body) throw badRequest(M.bodyRequired, field('body'));
      if (body.length > BROADCAST_BODY_MAX) throw badRequest(M.bodyTooLong, field('body'));
    }
    // One in-site message serves every recipient, so its text cannot vary per person.
    const texts = channel === 'SMS' ? [body] : [title, body];
    const unknown = [...new Set(texts.flatMap((text) => (channel === 'INSITE' ? [...text.matchAll(/\{([A-Za-z][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!) : unknownVariables(text))))];
    if (unknown.length) throw badRequest(M.variableUnknown, { field: channel === 'SMS' ? 'smsText' : 'body', variables: unknown });

    if (draft.segment.kind === 'TRACK') {
      const names = await repo.trackNames(tx);
      if (draft.segment.values.some((code) => !(code in names))) throw badRequest(M.segmentTrackInvalid, field('segment'));
    }
    return { channel, segment: draft.segment, title, body, template };
  }

  const deliverable = (channel: BroadcastChannel, counts: { total: number; withPhone: number; withEmail: number }) =>
    channel === 'SMS' ? counts.withPhone : channel === 'EMAIL' ? counts.withEmail : counts.total;

  function toBatch(row: BatchListRow, stats: BatchStats | undefined, trackNames: Record<string, string>): BroadcastBatch {
    const b = row.batch;
    const segment = b.segment as Segment;
    // The runner gave up on the job (retries spent): the batch did not finish.
    const status: BroadcastStatus = (b.status === 'QUEUED' || b.status === 'RUNNING') && row.job?.status === 'FAILED' ? 'FAILED' : b.status;
    const insite = b.channel === 'INSITE';
    return {
      id: b.id,
      channel: b.channel,
      title: b.title,
      body: b.body,
      templateId: b.templateId,
      segment,
      segmentText: describeSegment(segment, trackNames),
      total: b.total,
      delivered: insite ? (stats?.delivered ?? 0) : (stats?.sent ?? 0),
      read: insite ? (stats?.read ?? 0) : null,
      failed: insite ? null : (stats?.failed ?? 0),
      pending: insite ? null : (stats?.pending ?? 0),
      status,
      progress: row.job ? { done: row.job.done, total: row.job.total } : { done: 0, total: b.total },
      sender: row.sender ? { id: row.sender.id, name: row.sender.name || row.sender.username } : null,
      createdAt: iso(b.createdAt),
      finishedAt: isoOrNull(b.finishedAt),
      recalledAt: isoOrNull(stats?.recalledAt),
    };
  }

  function toRecord(r: RecordRow, channel: BroadcastChannel) {
    return {
      accountId: r.accountId,
      name: r.name || r.username || '',
      username: r.username ?? '',
      to: channel === 'SMS' ? maskPhone(r.recipient) : channel === 'EMAIL' ? maskEmail(r.recipient) : null,
      status: r.status as BroadcastRecordStatus,
      providerAnswer: r.providerAnswer ?? r.lastError,
      attempts: r.attempts,
      sentAt: isoOrNull(r.sentAt),
      readAt: isoOrNull(r.readAt),
    };
  }

  async function view(id: string): Promise<BroadcastBatch> {
    const row = await repo.find(id);
    if (!row) throw notFound(M.batchNotFound);
    const [stats, names] = await Promise.all([repo.stats([id], row.batch.channel), repo.trackNames()]);
    return toBatch(row, stats.get(id), names);
  }

  return {
    async preview(channel: BroadcastChannel, draft: BroadcastDraftParsed): Promise<BroadcastPreview> {
      const r = await resolve(channel, draft);
      const [counts, rows] = await Promise.all([countSegment(db, r.segment), segmentSlice(db, r.segment, { reach: REACH[channel], limit: SAMPLES })]);
      return {
        channel,
        total: counts.total,
        deliverable: deliverable(channel, counts),
        ...(channel === 'SMS' ? { withPhone: counts.withPhone, smsSegments: smsSegments(r.body) } : {}),
        ...(channel === 'EMAIL' ? { withEmail: counts.withEmail } : {}),
        samples: rows.map((row) => {
          const vars = variablesOf(row);
          const render = (text: string) => (channel === 'INSITE' ? text : renderBroadcast(text, vars));
          return {
            accountId: row.id,
            name: row.name || row.username,
            username: row.username,
            to: channel === 'SMS' ? maskPhone(row.phone) : channel === 'EMAIL' ? maskEmail(row.email) : null,
            title: render(r.title),
            body: channel === 'SMS' ? '' : render(r.body),
            smsText: channel === 'SMS' ? render(r.body) : '',
          };
        }),
      };
    },

    /** The batch and its job are written in one transaction: a send exists exactly when its job does. */
    async send(actor: OperationActor, channel: BroadcastChannel, draft: BroadcastDraftParsed): Promise<BroadcastSent> {
      const sent = await db.transaction(async (tx) => {
        const r = await resolve(channel, draft, tx);
        const counts = await countSegment(tx, r.segment);
        const total = deliverable(channel, counts);
        if (total === 0) throw badRequest(M.noRecipients, { field: 'segment', reason: 'NO_RECIPIENTS' });
        const batch = await repo.insertBatch(tx, {
          channel,
          templateId: r.template?.id ?? null,
          title: r.title,
          body: r.body,
          segment: r.segment as unknown as Record<string, unknown>,
          total,
          status: 'QUEUED',
          senderId: actor.auth.accountId,
        });
        const payload: BroadcastJobPayload = { batchId: batch.id, smsTemplateId: channel === 'SMS' ? (r.template?.smsTemplateId ?? null) : null };
        const jobId = await enqueueJob(tx, { kind: BROADCAST_JOB, payload: payload as unknown as Record<string, unknown>, total });
        await repo.setJob(tx, batch.id, jobId);
        const words = describeSegment(r.segment, r.segment.kind === 'TRACK' ? await repo.trackNames(tx) : {});
        await recordOperation(tx, actor, {
          action: channel === 'SMS' ? 'sms:send' : 'message:send',
          targetType: 'message_batch',
          targetId: batch.id,
          summary: `群发${CHANNEL_NAME[channel]}「${r.title || r.body.slice(0, 30)}」，对象：${words}，共 ${total} 人`,
        });
        return { batchId: batch.id, jobId, total };
      });
      kickJobs?.();
      return sent;
    },

    async list(q: BroadcastListQuery): Promise<Page<BroadcastBatch>> {
      const { rows, total } = await repo.page(q);
      const [stats, names] = await Promise.all([repo.stats(rows.map((r) => r.batch.id), q.channel), repo.trackNames()]);
      return { list: rows.map((r) => toBatch(r, stats.get(r.batch.id), names)), page: q.page, size: q.size, total };
    },

    async accounts(q: BroadcastAccountsQuery, pii: Pii): Promise<Page<BroadcastAccount>> {
      const { rows, total } = await repo.accounts(q, pii.full);
      return { list: rows.map((r) => ({ ...r, phone: maskPhone(r.phone) })), page: q.page, size: q.size, total };
    },

    /** The channel of a batch (the routes check its page's menu before showing it). */
    async channelOf(id: string): Promise<BroadcastChannel> {
      const row = await repo.find(id);
      if (!row) throw notFound(M.batchNotFound);
      return row.batch.channel;
    },

    async detail(id: string, q: BroadcastRecordsQuery): Promise<BroadcastDetail> {
      const batch = await view(id);
      const { rows, total } = await repo.records(batch, q);
      return { batch, records: { list: rows.map((r) => toRecord(r, batch.channel)), page: q.page, size: q.size, total } };
    },

    /** In-site only: recipients no longer see it (inbox and badge filter recalled messages). */
    async recall(actor: OperationActor, id: string): Promise<BroadcastBatch> {
      await db.transaction(async (tx) => {
        const batch = await repo.lock(tx, id);
        if (!batch) throw notFound(M.batchNotFound);
        if (batch.channel !== 'INSITE') throw badRequest(M.notInsite, { reason: 'NOT_INSITE' });
        if (batch.status === 'RECALLED' || !(await repo.recall(tx, id, now()))) throw badRequest(M.alreadyRecalled, { reason: 'RECALLED' });
        await recordOperation(tx, actor, { action: 'message:send', targetType: 'message_batch', targetId: id, summary: `撤回站内信「${batch.title}」` });
      });
      return view(id);
    },
  };
}
export type BroadcastService = ReturnType<typeof createBroadcastService>;
