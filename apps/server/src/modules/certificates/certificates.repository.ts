/**
 * SQL of certificates and letters (docs/certificates.md). Its own tables, and what it reads of
 * the others through their read models: result versions and lines (results), teams, projects,
 * accounts, expert profiles, review groups, attachments, jobs.
 */
import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { CertificateDocumentQuery, CertificateKind, CertificateTemplateListQuery, ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';
import {
  certificateRuns,
  certificates,
  certificateTemplateVersions,
  certificateTemplates,
  type CertificateRunSummaryJson,
} from '../../db/schema/certificates.js';
import { jobsView } from '../../lib/jobs.js';
import { contains, createListQuery, equals } from '../../lib/list-query.js';
import { accountsView } from '../auth/auth.read-model.js';
import { expertProfilesView } from '../experts/experts.read-model.js';
import { attachmentsView } from '../files/files.read-model.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { resultEntriesView, resultVersionsView } from '../results/results.read-model.js';
import { reviewExtraExpertsView, reviewGroupExpertsView } from '../review/review.read-model.js';
import { teamsView } from '../team/team.read-model.js';

export type TemplateRow = typeof certificateTemplates.$inferSelect;
export type TemplateVersionRow = typeof certificateTemplateVersions.$inferSelect;
export type CertificateRow = typeof certificates.$inferSelect;
export type RunRow = typeof certificateRuns.$inferSelect;

/** Every stored document of the round and kind whose serial, holder, project or award contains the keyword. */
function documentFilters(q: Pick<CertificateDocumentQuery, 'round' | 'kind' | 'status' | 'keyword'>) {
  return [
    equals(certificates.round, q.round),
    equals(certificates.kind, q.kind),
    equals(certificates.status, q.status),
    contains([certificates.serial, certificates.holderName, certificates.projectName, certificates.award], q.keyword),
  ];
}

export function createCertificatesRepository(db: Db) {
  const docCounts = db
    .select({ templateId: certificates.templateId, n: count().as('n') })
    .from(certificates)
    .groupBy(certificates.templateId)
    .as('doc_counts');

  const templateList = createListQuery({
    rows: () =>
      db
        .select({ template: certificateTemplates, documentCount: sql<number>`coalesce(${docCounts.n}, 0)`.mapWith(Number) })
        .from(certificateTemplates)
        .leftJoin(docCounts, eq(docCounts.templateId, certificateTemplates.id))
        .$dynamic(),
    count: () => db.select({ n: count() }).from(certificateTemplates).$dynamic(),
    sortable: { name: certificateTemplates.name, updatedAt: certificateTemplates.updatedAt },
    defaultOrder: [{ column: certificateTemplates.updatedAt, order: 'desc' }],
    tiebreak: { column: certificateTemplates.id, order: 'asc' },
  });

  const documentList = createListQuery({
    rows: () => db.select().from(certificates).$dynamic(),
    count: () => db.select({ n: count() }).from(certificates).$dynamic(),
    sortable: { issuedAt: certificates.issuedAt, serial: certificates.serial, holderName: certificates.holderName },
    defaultOrder: [{ column: certificates.issuedAt, order: 'desc' }],
    tiebreak: { column: certificates.id, order: 'asc' },
  });

  return {
    // ---------------------------------------------------------------- templates

    templatePage(q: CertificateTemplateListQuery) {
      return templateList.page([equals(certificateTemplates.kind, q.kind), contains([certificateTemplates.name, certificateTemplates.awardLevel], q.keyword)], q);
    },

    async template(tx: Db, id: string, lock = false): Promise<TemplateRow | null> {
      const query = tx.select().from(certificateTemplates).where(eq(certificateTemplates.id, id)).limit(1);
      const [row] = lock ? await query.for('update') : await query;
      return row ?? null;
    },

    async insertTemplate(tx: Db, values: typeof certificateTemplates.$inferInsert): Promise<TemplateRow> {
      const [row] = await tx.insert(certificateTemplates).values(values).returning();
      return row!;
    },

    async updateTemplate(tx: Db, id: string, values: Partial<typeof certificateTemplates.$inferInsert>): Promise<TemplateRow> {
      const [row] = await tx.update(certificateTemplates).set(values).where(eq(certificateTemplates.id, id)).returning();
      return row!;
    },

    async insertVersion(tx: Db, values: typeof certificateTemplateVersions.$inferInsert): Promise<TemplateVersionRow> {
      const [row] = await tx.insert(certificateTemplateVersions).values(values).returning();
      return row!;
    },

    async version(tx: Db, templateId: string, version: number): Promise<TemplateVersionRow | null> {
      const [row] = await tx
        .select()
        .from(certificateTemplateVersions)
        .where(and(eq(certificateTemplateVersions.templateId, templateId), eq(certificateTemplateVersions.version, version)))
        .limit(1);
      return row ?? null;
    },

    async versions(templateId: string) {
      const counts = db
        .select({ version: certificates.templateVersion, n: count().as('n') })
        .from(certificates)
        .where(eq(certificates.templateId, templateId))
        .groupBy(certificates.templateVersion)
        .as('version_counts');
      return db
        .select({ version: certificateTemplateVersions, documentCount: sql<number>`coalesce(${counts.n}, 0)`.mapWith(Number) })
        .from(certificateTemplateVersions)
        .leftJoin(counts, eq(counts.version, certificateTemplateVersions.version))
        .where(eq(certificateTemplateVersions.templateId, templateId))
        .orderBy(desc(certificateTemplateVersions.version));
    },

    /** Enabled templates (optionally only these ids) with their current versions. */
    async enabledTemplates(tx: Db, ids?: readonly string[]) {
      return tx
        .select({ template: certificateTemplates, version: certificateTemplateVersions })
        .from(certificateTemplates)
        .innerJoin(
          certificateTemplateVersions,
          and(eq(certificateTemplateVersions.templateId, certificateTemplates.id), eq(certificateTemplateVersions.version, certificateTemplates.currentVersion)),
        )
        .where(and(eq(certificateTemplates.enabled, true), ids ? inArray(certificateTemplates.id, [...ids]) : undefined));
    },

    async templatesByIds(tx: Db, ids: readonly string[]): Promise<TemplateRow[]> {
      if (ids.length === 0) return [];
      return tx.select().from(certificateTemplates).where(inArray(certificateTemplates.id, [...ids]));
    },

    async attachmentByUniqueNo(tx: Db, uniqueNo: string) {
      const [row] = await tx.select().from(attachmentsView).where(eq(attachmentsView.uniqueNo, uniqueNo)).limit(1);
      return row ?? null;
    },

    async attachmentById(tx: Db, id: string) {
      const [row] = await tx.select().from(attachmentsView).where(eq(attachmentsView.id, id)).limit(1);
      return row ?? null;
    },

    // ---------------------------------------------------------------- what documents are about

    async publishedVersion(tx: Db, round: ReviewRound) {
      const [row] = await tx
        .select()
        .from(resultVersionsView)
        .where(and(eq(resultVersionsView.round, round), eq(resultVersionsView.status, 'PUBLISHED')))
        .limit(1);
      return row ?? null;
    },

    /** When the round's result was first published (the contest year of its serials). */
    async firstPublishedAt(tx: Db, round: ReviewRound): Promise<Date | null> {
      const [row] = await tx
        .select({ at: resultVersionsView.publishedAt })
        .from(resultVersionsView)
        .where(eq(resultVersionsView.round, round))
        .orderBy(asc(resultVersionsView.version))
        .limit(1);
      return row?.at ?? null;
    },

    async entries(tx: Db, versionId: string) {
      return tx.select().from(resultEntriesView).where(eq(resultEntriesView.versionId, versionId)).orderBy(asc(resultEntriesView.rank), asc(resultEntriesView.prelimId));
    },

    /** Team facts the documents print besides the result line: members (leader first) and the owner. */
    async teams(tx: Db, teamIds: readonly string[]) {
      if (teamIds.length === 0) return [];
      return tx
        .select({ id: teamsView.id, ownerId: teamsView.ownerId, teamName: teamsView.teamName, orgName: teamsView.orgName, leader: teamsView.leader, members: teamsView.members })
        .from(teamsView)
        .where(inArray(teamsView.id, [...teamIds]));
    },

    /** A project for a preview: its names, its team's and, when it has one, its line in the round's published version. */
    async project(tx: Db, prelimId: string) {
      const [row] = await tx
        .select({
          prelimId: prelimDocsView.id,
          projectName: prelimDocsView.projectName,
          teamId: teamsView.id,
          teamName: teamsView.teamName,
          orgName: teamsView.orgName,
          leader: teamsView.leader,
          members: teamsView.members,
        })
        .from(prelimDocsView)
        .innerJoin(teamsView, eq(teamsView.id, prelimDocsView.teamId))
        .where(eq(prelimDocsView.id, prelimId))
        .limit(1);
      return row ?? null;
    },

    async entryOf(tx: Db, versionId: string, prelimId: string) {
      const [row] = await tx
        .select()
        .from(resultEntriesView)
        .where(and(eq(resultEntriesView.versionId, versionId), eq(resultEntriesView.prelimId, prelimId)))
        .limit(1);
      return row ?? null;
    },

    /** Experts of a round: its review groups' members and the experts added to re-reviews. */
    async roundExperts(tx: Db, round: ReviewRound) {
      const inGroups = await tx.select({ id: reviewGroupExpertsView.expertId }).from(reviewGroupExpertsView).where(eq(reviewGroupExpertsView.round, round));
      const extra = await tx.select({ id: reviewExtraExpertsView.expertId }).from(reviewExtraExpertsView).where(eq(reviewExtraExpertsView.round, round));
      const ids = [...new Set([...inGroups, ...extra].map((r) => r.id))];
      return this.experts(tx, ids);
    },

    async experts(tx: Db, ids: readonly string[]) {
      if (ids.length === 0) return [];
      return tx
        .select({ id: accountsView.id, name: accountsView.name, username: accountsView.username, organization: expertProfilesView.organization })
        .from(accountsView)
        .leftJoin(expertProfilesView, eq(expertProfilesView.accountId, accountsView.id))
        .where(and(inArray(accountsView.id, [...ids]), eq(accountsView.realm, 'EXPERT')))
        .orderBy(asc(accountsView.username));
    },

    /** Preview records: projects (by project or team name) or experts (by name or account), at most 20. */
    async previewProjects(keyword: string | undefined) {
      return db
        .select({ id: prelimDocsView.id, projectName: prelimDocsView.projectName, teamName: teamsView.teamName })
        .from(prelimDocsView)
        .innerJoin(teamsView, eq(teamsView.id, prelimDocsView.teamId))
        .where(and(ne(prelimDocsView.projectName, ''), contains([prelimDocsView.projectName, teamsView.teamName], keyword)))
        .orderBy(asc(prelimDocsView.projectName), asc(prelimDocsView.id))
        .limit(20);
    },

    async previewExperts(keyword: string | undefined) {
      return db
        .select({ id: accountsView.id, name: accountsView.name, username: accountsView.username })
        .from(accountsView)
        .where(and(eq(accountsView.realm, 'EXPERT'), contains([accountsView.name, accountsView.username], keyword)))
        .orderBy(asc(accountsView.username))
        .limit(20);
    },

    /** Teams a participant owns. */
    async ownedTeamIds(accountId: string): Promise<string[]> {
      const rows = await db.select({ id: teamsView.id }).from(teamsView).where(eq(teamsView.ownerId, accountId));
      return rows.map((r) => r.id);
    },

    // ---------------------------------------------------------------- documents

    async validDoc(tx: Db, round: ReviewRound, kind: CertificateKind, subjectId: string, lock = false): Promise<CertificateRow | null> {
      const query = tx
        .select()
        .from(certificates)
        .where(and(eq(certificates.round, round), eq(certificates.kind, kind), eq(certificates.subjectId, subjectId), eq(certificates.status, 'VALID')))
        .limit(1);
      const [row] = lock ? await query.for('update') : await query;
      return row ?? null;
    },

    async validDocsOf(tx: Db, round: ReviewRound, kinds: readonly CertificateKind[]): Promise<CertificateRow[]> {
      if (kinds.length === 0) return [];
      return tx
        .select()
        .from(certificates)
        .where(and(eq(certificates.round, round), inArray(certificates.kind, [...kinds]), eq(certificates.status, 'VALID')))
        .for('update');
    },

    async insertDoc(tx: Db, values: typeof certificates.$inferInsert): Promise<CertificateRow> {
      const [row] = await tx.insert(certificates).values(values).returning();
      return row!;
    },

    async endDoc(tx: Db, id: string, status: 'SUPERSEDED' | 'REVOKED', successorId: string | null, runId: string, at: Date): Promise<void> {
      await tx
        .update(certificates)
        .set({ status, successorId, endedRunId: runId, endedAt: at })
        .where(and(eq(certificates.id, id), eq(certificates.status, 'VALID')));
    },

    async doc(id: string): Promise<CertificateRow | null> {
      const [row] = await db.select().from(certificates).where(eq(certificates.id, id)).limit(1);
      return row ?? null;
    },

    async docBySerial(serial: string): Promise<CertificateRow | null> {
      const [row] = await db.select().from(certificates).where(eq(certificates.serial, serial)).limit(1);
      return row ?? null;
    },

    async serialsOf(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.select({ id: certificates.id, serial: certificates.serial }).from(certificates).where(inArray(certificates.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.serial]));
    },

    documentPage(q: CertificateDocumentQuery) {
      return documentList.page(documentFilters(q), q);
    },

    /** Documents of a round for the zip, in kind then serial order. */
    async roundDocs(round: ReviewRound, filter: { status: CertificateRow['status']; kind?: CertificateKind | undefined }): Promise<CertificateRow[]> {
      return db
        .select()
        .from(certificates)
        .where(and(eq(certificates.round, round), eq(certificates.status, filter.status), filter.kind ? eq(certificates.kind, filter.kind) : undefined))
        .orderBy(asc(certificates.kind), asc(certificates.serial));
    },

    async docsOfTeams(teamIds: readonly string[]): Promise<CertificateRow[]> {
      if (teamIds.length === 0) return [];
      return db.select().from(certificates).where(inArray(certificates.teamId, [...teamIds])).orderBy(desc(certificates.issuedAt), asc(certificates.id));
    },

    async docsOfExpert(expertId: string): Promise<CertificateRow[]> {
      return db.select().from(certificates).where(eq(certificates.expertId, expertId)).orderBy(desc(certificates.issuedAt), asc(certificates.id));
    },

    async counts(round: ReviewRound) {
      return db
        .select({ kind: certificates.kind, status: certificates.status, count: count() })
        .from(certificates)
        .where(eq(certificates.round, round))
        .groupBy(certificates.kind, certificates.status)
        .orderBy(asc(certificates.kind), asc(certificates.status));
    },

    async issuedVersion(round: ReviewRound): Promise<number | null> {
      const [row] = await db
        .select({ v: sql<number | null>`max(${certificates.resultVersion})` })
        .from(certificates)
        .where(and(eq(certificates.round, round), eq(certificates.status, 'VALID')));
      return row?.v === null || row?.v === undefined ? null : Number(row.v);
    },

    /** Documents a run issued (still VALID) or ended, for its score-log entry and notices. */
    async runDocs(tx: Db, runId: string) {
      return tx
        .select()
        .from(certificates)
        .where(or(eq(certificates.runId, runId), eq(certificates.endedRunId, runId)))
        .orderBy(asc(certificates.serial));
    },

    // ---------------------------------------------------------------- runs

    async insertRun(tx: Db, values: typeof certificateRuns.$inferInsert): Promise<RunRow> {
      const [row] = await tx.insert(certificateRuns).values(values).returning();
      return row!;
    },

    async run(tx: Db, id: string, lock = false): Promise<RunRow | null> {
      const query = tx.select().from(certificateRuns).where(eq(certificateRuns.id, id)).limit(1);
      const [row] = lock ? await query.for('update') : await query;
      return row ?? null;
    },

    async runByJob(tx: Db, jobId: string): Promise<RunRow | null> {
      const [row] = await tx.select().from(certificateRuns).where(eq(certificateRuns.jobId, jobId)).limit(1);
      return row ?? null;
    },

    /** Adds to a run's tally (in the transaction of the change it counts). */
    async tally(tx: Db, runId: string, add: Partial<CertificateRunSummaryJson>): Promise<void> {
      const parts = (['issued', 'unchanged', 'superseded', 'revoked'] as const).map(
        (k) => sql`${k}::text, (coalesce((${certificateRuns.summary}->>${k})::int, 0) + ${add[k] ?? 0})`,
      );
      await tx
        .update(certificateRuns)
        .set({ summary: sql`jsonb_build_object(${sql.join(parts, sql`, `)})` })
        .where(eq(certificateRuns.id, runId));
    },

    async finishRun(tx: Db, runId: string, at: Date): Promise<void> {
      await tx.update(certificateRuns).set({ finishedAt: at }).where(and(eq(certificateRuns.id, runId), isNull(certificateRuns.finishedAt)));
    },

    /** A run with its job's state. */
    async runView(where: SQL) {
      const [row] = await db
        .select({ run: certificateRuns, job: { status: jobsView.status, done: jobsView.done, total: jobsView.total, lastError: jobsView.lastError, finishedAt: jobsView.finishedAt } })
        .from(certificateRuns)
        .leftJoin(jobsView, eq(jobsView.id, certificateRuns.jobId))
        .where(where)
        .orderBy(desc(certificateRuns.createdAt))
        .limit(1);
      return row ?? null;
    },

    lastRunOf: (round: ReviewRound) => eq(certificateRuns.round, round),
    runOfJob: (jobId: string) => eq(certificateRuns.jobId, jobId),

    /** The live job of a dedupe key, if any. */
    async liveJob(tx: Db, dedupeKey: string): Promise<string | null> {
      const [row] = await tx
        .select({ id: jobsView.id })
        .from(jobsView)
        .where(and(eq(jobsView.dedupeKey, dedupeKey), inArray(jobsView.status, ['QUEUED', 'RUNNING'])))
        .limit(1);
      return row?.id ?? null;
    },
  };
}
export type CertificatesRepository = ReturnType<typeof createCertificatesRepository>;
