/**
 * A participant's own data, as one zip (docs/retention.md, "Export"): `my-data.json` with every
 * record the portal holds about them (read through the owners' read models) and their files
 * under `files/`. Built to a temporary file (files are streamed in, never held whole), then put
 * in the store under a key of the request, so a job run again after a kill replaces it.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { zipStream, type ZipEntry } from '../../lib/zip-stream.js';
import type { Db } from '../../db/client.js';
import type { Storage } from '../../lib/storage/storage.js';
import { accountsView, loginRecordsView } from '../auth/auth.read-model.js';
import { feedbackView } from '../feedback/feedback.read-model.js';
import { attachmentsView } from '../files/files.read-model.js';
import { messageRecipientsView, messagesView } from '../messages/messages.read-model.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { appealsView, resultEntriesView, resultVersionsView } from '../results/results.read-model.js';
import { teamsView } from '../team/team.read-model.js';

/** The key of a request's zip in the store. */
export const exportKeyOf = (requestId: string) => `exports/${requestId.toLowerCase()}`;

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
/** A file's name inside the zip: no folders, no clashes. */
const entryName = (i: number, name: string) => `files/${String(i + 1).padStart(3, '0')}-${name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_')}`;

/** Every record about the account, as plain JSON (no internal ids beyond the record's own). */
export async function collectPersonalData(db: Db, accountId: string) {
  const [account] = await db
    .select({
      username: accountsView.username,
      name: accountsView.name,
      phone: accountsView.phone,
      email: accountsView.email,
      locale: accountsView.locale,
      createdAt: accountsView.createdAt,
      lastLoginAt: accountsView.lastLoginAt,
    })
    .from(accountsView)
    .where(eq(accountsView.id, accountId));
  const teams = await db.select().from(teamsView).where(eq(teamsView.ownerId, accountId));
  const prelims = await db.select().from(prelimDocsView).where(eq(prelimDocsView.ownerId, accountId));
  const files = await db
    .select({
      id: attachmentsView.id,
      origin: attachmentsView.origin,
      name: attachmentsView.originalName,
      size: attachmentsView.size,
      sha256: attachmentsView.sha256,
      storageKey: attachmentsView.storageKey,
      createdAt: attachmentsView.createdAt,
    })
    .from(attachmentsView)
    .where(eq(attachmentsView.ownerId, accountId))
    .orderBy(asc(attachmentsView.createdAt));
  const appeals = await db.select().from(appealsView).where(eq(appealsView.ownerId, accountId));
  const prelimIds = prelims.map((p) => p.id);
  const results = prelimIds.length
    ? await db
        .select({
          round: resultVersionsView.round,
          version: resultVersionsView.version,
          status: resultVersionsView.status,
          publishedAt: resultVersionsView.publishedAt,
          projectName: resultEntriesView.projectName,
          rank: resultEntriesView.rank,
          score: resultEntriesView.score,
          outcome: resultEntriesView.outcome,
          awardName: resultEntriesView.awardName,
        })
        .from(resultEntriesView)
        .innerJoin(resultVersionsView, eq(resultVersionsView.id, resultEntriesView.versionId))
        .where(inArray(resultEntriesView.prelimId, prelimIds))
        .orderBy(asc(resultVersionsView.round), asc(resultVersionsView.version))
    : [];
  const feedback = await db.select().from(feedbackView).where(eq(feedbackView.ownerId, accountId)).orderBy(asc(feedbackView.createdAt));
  const messages = await db
    .select({ title: messagesView.title, body: messagesView.body, createdAt: messagesView.createdAt, readAt: messageRecipientsView.readAt })
    .from(messageRecipientsView)
    .innerJoin(messagesView, eq(messagesView.id, messageRecipientsView.messageId))
    .where(eq(messageRecipientsView.accountId, accountId))
    .orderBy(desc(messagesView.createdAt))
    .limit(5000);
  const logins = await db
    .select({ at: loginRecordsView.createdAt, method: loginRecordsView.method, result: loginRecordsView.result, ip: loginRecordsView.ip, userAgent: loginRecordsView.userAgent })
    .from(loginRecordsView)
    .where(and(eq(loginRecordsView.accountId, accountId)))
    .orderBy(desc(loginRecordsView.createdAt))
    .limit(5000);

  const data = {
    exportedAt: new Date().toISOString(),
    account: account ? { ...account, createdAt: iso(account.createdAt), lastLoginAt: iso(account.lastLoginAt) } : null,
    signUp: teams.map((t) => ({
      status: t.status,
      teamName: t.teamName,
      orgName: t.orgName,
      orgType: t.orgType,
      creditCode: t.creditCode,
      region: t.region,
      city: t.city,
      track: t.track,
      leader: t.leader,
      members: t.members,
      advisor: t.advisor,
      auditReason: t.auditReason,
      submittedAt: iso(t.submittedAt),
      auditedAt: iso(t.auditedAt),
    })),
    preliminaryMaterials: prelims.map((p) => ({
      status: p.status,
      projectName: p.projectName,
      track: p.track,
      summary: p.summary,
      keywords: p.keywords,
      auditReason: p.auditReason,
      submittedAt: iso(p.submittedAt),
      auditedAt: iso(p.auditedAt),
    })),
    files: files.map((f, i) => ({ origin: f.origin, name: f.name, size: f.size, sha256: f.sha256, uploadedAt: iso(f.createdAt), inZip: entryName(i, f.name) })),
    results: results.map((r) => ({ ...r, publishedAt: iso(r.publishedAt) })),
    appeals: appeals.map((a) => ({ round: a.round, resultVersion: a.resultVersion, reason: a.reason, status: a.status, reply: a.reply, filedAt: iso(a.createdAt), decidedAt: iso(a.decidedAt) })),
    feedback: feedback.map((f) => ({ type: f.type, content: f.content, contact: f.contact, status: f.status, reply: f.reply, createdAt: iso(f.createdAt), repliedAt: iso(f.repliedAt) })),
    messages: messages.map((m) => ({ title: m.title, body: m.body, sentAt: iso(m.createdAt), readAt: iso(m.readAt) })),
    loginRecords: logins.map((l) => ({ ...l, at: iso(l.at) })),
  };
  return { data, files };
}

/**
 * Builds the zip of `accountId` and stores it under the request's key; answers its size. The
 * temporary file lives in `tmpDir` and is removed whatever happens.
 */
export async function buildExportZip(db: Db, storage: Storage, tmpDir: string, requestId: string, accountId: string): Promise<{ storageKey: string; size: number }> {
  const { data, files } = await collectPersonalData(db, accountId);
  const entries: ZipEntry[] = [
    { name: 'my-data.json', compress: true, open: async () => Readable.from([Buffer.from(JSON.stringify(data, null, 2))]) },
    // Each file is fetched from the store only when the archive reaches it; one that is gone by then is left out.
    ...files.map((f, i) => ({
      name: entryName(i, f.name),
      size: f.size,
      open: async () => (await storage.get(f.storageKey)) ?? Readable.from([]),
    })),
  ];
  await mkdir(tmpDir, { recursive: true });
  const path = join(tmpDir, `export-${requestId}.zip`);
  try {
    await pipeline(zipStream(entries, new Date()), createWriteStream(path));
    const { size } = await stat(path);
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    const storageKey = exportKeyOf(requestId);
    await storage.putFile(storageKey, path, { size, sha256: hash.digest('hex'), contentType: 'application/zip' });
    return { storageKey, size };
  } finally {
    await rm(path, { force: true });
  }
}
