/**
 * Issuing certificates and letters for a round (docs/certificates.md, "Issuing"): a durable job
 * (lib/jobs.ts, kind `certificates.issue`, one live job per round) over the round's PUBLISHED
 * result version. Idempotent: a holder whose VALID document already states the same thing keeps
 * it; a changed outcome gets a new document and the old one becomes SUPERSEDED (pointing to it);
 * a holder who no longer qualifies has theirs REVOKED. The unique index "one VALID document per
 * round, kind and subject" makes a duplicate impossible whatever runs at once.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import {
  CERTIFICATE_KINDS_BY_ROUND,
  CERTIFICATE_KIND_NAMES,
  CERTIFICATE_MSG as M,
  ROUND_NAMES,
  type CertificateIssueBody,
  type CertificateIssueStarted,
  type CertificateJobView,
  type CertificateKind,
  type CertificateOverview,
  type CertificateRoundOverview,
  type ReviewRound,
  REVIEW_ROUNDS,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { enqueueJob, type JobContext, type JobRow } from '../../lib/jobs.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { isUniqueViolation } from '../admin/admin-util.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { notifyEvent } from '../notices/notify.js';
import { appendScoreLog } from '../score-log/score-log.js';
import { renderCertificatePdf } from './certificate-pdf.js';
import {
  ISSUE_JOB,
  PROMOTION_AWARD,
  backgroundBytes,
  beijingYear,
  chooseTemplate,
  issueDedupeKey,
  memberNames,
  printData,
  type CertificatesDeps,
  type HolderPrint,
  type ResolvedTemplate,
} from './certificates.common.js';
import type { RunRow } from './certificates.repository.js';
import { newCertificateSerial } from './serial.js';

/** One document a run must make sure exists. */
export interface IssueTarget {
  kind: CertificateKind;
  subjectId: string;
  holderType: 'TEAM' | 'EXPERT';
  prelimId: string | null;
  teamId: string | null;
  expertId: string | null;
  holderName: string;
  projectName: string | null;
  awardCode: string | null;
  award: string | null;
  fingerprint: string;
  print: HolderPrint;
  template: ResolvedTemplate;
}

type PublishedVersion = NonNullable<Awaited<ReturnType<CertificatesDeps['repo']['publishedVersion']>>>;

interface IssueRequest {
  round: ReviewRound;
  kinds: readonly CertificateKind[];
  templateIds: readonly string[] | null;
  participationForAll: boolean;
}

const fingerprintOf = (kind: CertificateKind, awardCode: string | null, award: string | null) => `${kind}|${awardCode ?? ''}|${award ?? ''}`;
const OUTCOME_KINDS: readonly CertificateKind[] = ['AWARD', 'PROMOTION'];

export function createIssueService(deps: CertificatesDeps) {
  const { db, repo } = deps;

  /** Every document the request asks for, with its template (400 when a template is missing or ambiguous). */
  async function plan(tx: Db, req: IssueRequest, version: PublishedVersion): Promise<IssueTarget[]> {
    const allowed = CERTIFICATE_KINDS_BY_ROUND[req.round];
    const wrong = req.kinds.find((k) => !allowed.includes(k));
    if (wrong) throw badRequest(M.kindNotForRound, { field: 'kinds', reason: 'KIND_NOT_FOR_ROUND', kind: wrong });
    const candidates = await repo.enabledTemplates(tx, req.templateIds ?? undefined);
    if (req.templateIds) {
      const found = new Set(candidates.map((c) => c.template.id));
      const missing = req.templateIds.find((id) => !found.has(id));
      if (missing) throw badRequest(M.templateNotFound, { field: 'templateIds', reason: 'TEMPLATE_NOT_FOUND', templateId: missing });
    }
    const targets: IssueTarget[] = [];
    const wants = (k: CertificateKind) => req.kinds.includes(k);
    if (wants('AWARD') || wants('PROMOTION') || wants('PARTICIPATION')) {
      const entries = await repo.entries(tx, version.id);
      const teams = new Map((await repo.teams(tx, [...new Set(entries.map((e) => e.teamId))])).map((t) => [t.id, t]));
      for (const e of entries) {
        const team = teams.get(e.teamId) ?? null;
        const base = {
          subjectId: e.prelimId,
          holderType: 'TEAM' as const,
          prelimId: e.prelimId,
          teamId: e.teamId,
          expertId: null,
          holderName: e.teamName,
          projectName: e.projectName,
        };
        const print = (award: string): HolderPrint => ({ team: e.teamName, project: e.projectName, organisation: e.orgName, members: memberNames(team), award, expertName: '' });
        const selected = e.outcome === 'PROMOTED' || e.outcome === 'AWARDED';
        if (e.outcome === 'AWARDED' && wants('AWARD')) {
          const award = e.awardName ?? '';
          targets.push({ ...base, kind: 'AWARD', awardCode: e.awardCode, award, fingerprint: fingerprintOf('AWARD', e.awardCode, award), print: print(award), template: chooseTemplate(candidates, 'AWARD', award) });
        }
        if (e.outcome === 'PROMOTED' && wants('PROMOTION')) {
          targets.push({ ...base, kind: 'PROMOTION', awardCode: null, award: PROMOTION_AWARD, fingerprint: fingerprintOf('PROMOTION', null, PROMOTION_AWARD), print: print(PROMOTION_AWARD), template: chooseTemplate(candidates, 'PROMOTION', null) });
        }
        if (wants('PARTICIPATION') && (req.participationForAll || !selected)) {
          targets.push({ ...base, kind: 'PARTICIPATION', awardCode: null, award: null, fingerprint: fingerprintOf('PARTICIPATION', null, null), print: print(''), template: chooseTemplate(candidates, 'PARTICIPATION', null) });
        }
      }
    }
    for (const kind of ['EXPERT_APPOINTMENT', 'EXPERT_THANKS'] as const) {
      if (!wants(kind)) continue;
      const experts = await repo.roundExperts(tx, req.round);
      for (const x of experts) {
        const name = x.name?.trim() || x.username;
        targets.push({
          kind,
          subjectId: x.id,
          holderType: 'EXPERT',
          prelimId: null,
          teamId: null,
          expertId: x.id,
          holderName: name,
          projectName: null,
          awardCode: null,
          award: null,
          fingerprint: fingerprintOf(kind, null, null),
          print: { team: '', project: '', organisation: x.organization ?? '', members: '', award: '', expertName: name },
          template: chooseTemplate(candidates, kind, null),
        });
      }
    }
    return targets;
  }

  /** Makes sure the target's VALID document states what it should; answers what happened. */
  async function issueOne(run: RunRow, version: PublishedVersion, target: IssueTarget, year: number, backgrounds: Map<string, Buffer | null>): Promise<'issued' | 'superseded' | 'unchanged'> {
    const existing = await repo.validDoc(db, run.round, target.kind, target.subjectId);
    if (existing && existing.fingerprint === target.fingerprint) {
      await db.transaction((tx) => repo.tally(tx, run.id, { unchanged: 1 }));
      return 'unchanged';
    }
    const id = randomUUID();
    const serial = newCertificateSerial(year);
    const issuedAt = deps.now();
    const v = target.template.version;
    const bgKey = v.backgroundId ?? '';
    if (!backgrounds.has(bgKey)) backgrounds.set(bgKey, await backgroundBytes(deps, db, v.backgroundId));
    const settings = await deps.settingsOf();
    const pdf = await renderCertificatePdf(v, backgrounds.get(bgKey) ?? null, printData(target.print, settings, run.round, issuedAt, serial, deps.publicOrigin));
    const storageKey = `certificates/${run.round.toLowerCase()}/${id}`;
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    await deps.storage.put(storageKey, Readable.from([pdf]), { size: pdf.length, sha256, contentType: 'application/pdf' });
    try {
      return await db.transaction(async (tx) => {
        const current = await repo.validDoc(tx, run.round, target.kind, target.subjectId, true);
        if (current && current.fingerprint === target.fingerprint) {
          await repo.tally(tx, run.id, { unchanged: 1 });
          return 'unchanged' as const;
        }
        if (current) await repo.endDoc(tx, current.id, 'SUPERSEDED', id, run.id, issuedAt);
        // A team now promoted or awarded: its participation certificate of the round is replaced by this one.
        let replaced = current ? 1 : 0;
        if (OUTCOME_KINDS.includes(target.kind) && !run.participationForAll) {
          const participation = await repo.validDoc(tx, run.round, 'PARTICIPATION', target.subjectId, true);
          if (participation) {
            await repo.endDoc(tx, participation.id, 'SUPERSEDED', id, run.id, issuedAt);
            replaced += 1;
          }
        }
        await repo.insertDoc(tx, {
          id,
          serial,
          round: run.round,
          kind: target.kind,
          holderType: target.holderType,
          subjectId: target.subjectId,
          prelimId: target.prelimId,
          teamId: target.teamId,
          expertId: target.expertId,
          holderName: target.holderName,
          projectName: target.projectName,
          awardCode: target.awardCode,
          award: target.award,
          fingerprint: target.fingerprint,
          resultVersionId: version.id,
          resultVersion: version.version,
          templateId: v.templateId,
          templateVersion: v.version,
          storageKey,
          pdfSize: pdf.length,
          pdfSha256: sha256,
          pdfCrc32: crc32(pdf),
          runId: run.id,
          issuedAt,
        });
        await repo.tally(tx, run.id, { issued: 1, superseded: replaced });
        return current ? ('superseded' as const) : ('issued' as const);
      }).then(async (outcome) => {
        if (outcome === 'unchanged') await deps.storage.delete(storageKey);
        return outcome;
      });
    } catch (err) {
      await deps.storage.delete(storageKey).catch(() => {});
      // Another run made the same document meanwhile (the unique VALID index): nothing to do.
      if (isUniqueViolation(err)) {
        await db.transaction((tx) => repo.tally(tx, run.id, { unchanged: 1 }));
        return 'unchanged';
      }
      throw err;
    }
  }

  /** VALID documents of the run's kinds that no target wants any more: REVOKED (a participation replaced by an award: SUPERSEDED). */
  async function endMissing(run: RunRow, targets: readonly IssueTarget[]): Promise<void> {
    const wanted = new Set(targets.map((t) => `${t.kind}|${t.subjectId}`));
    await db.transaction(async (tx) => {
      const valid = await repo.validDocsOf(tx, run.round, run.kinds as CertificateKind[]);
      const at = deps.now();
      let revoked = 0;
      let superseded = 0;
      for (const doc of valid) {
        if (wanted.has(`${doc.kind}|${doc.subjectId}`)) continue;
        let successor: string | null = null;
        if (doc.kind === 'PARTICIPATION') {
          for (const k of OUTCOME_KINDS) successor ??= (await repo.validDoc(tx, run.round, k, doc.subjectId))?.id ?? null;
        }
        await repo.endDoc(tx, doc.id, successor ? 'SUPERSEDED' : 'REVOKED', successor, run.id, at);
        if (successor) superseded += 1;
        else revoked += 1;
      }
      if (revoked + superseded > 0) await repo.tally(tx, run.id, { revoked, superseded });
    });
  }

  /** Once per run: the teams' notices, the end time and, when anything changed, the score-log entry (last in its transaction). */
  async function finish(run: RunRow, version: PublishedVersion): Promise<void> {
    await db.transaction(async (tx) => {
      const current = await repo.run(tx, run.id, true);
      if (!current || current.finishedAt) return;
      const docs = await repo.runDocs(tx, run.id);
      const issued = docs.filter((d) => d.runId === run.id);
      const ended = docs.filter((d) => d.endedRunId === run.id);
      const byTeam = new Map<string, (typeof issued)[number]>();
      for (const d of issued) if (d.teamId && d.status === 'VALID' && !byTeam.has(d.teamId)) byTeam.set(d.teamId, d);
      const owners = new Map((await repo.teams(tx, [...byTeam.keys()])).map((t) => [t.id, t]));
      for (const [teamId, doc] of byTeam) {
        const team = owners.get(teamId);
        if (!team) continue;
        await notifyEvent(tx, {
          code: 'CERTIFICATES_READY',
          accountIds: [team.ownerId],
          vars: { teamName: doc.holderName, projectName: doc.projectName ?? '', round: ROUND_NAMES[run.round] },
          senderId: run.actorId,
        });
      }
      await repo.finishRun(tx, run.id, deps.now());
      if (issued.length + ended.length > 0) {
        await appendScoreLog(tx, {
          kind: 'CERTIFICATES_ISSUED',
          round: run.round,
          subjectType: 'result_version',
          subjectId: version.id,
          actor: run.actorId ? { id: run.actorId, name: run.actorName } : null,
          payload: {
            runId: run.id,
            resultVersion: version.version,
            kinds: run.kinds,
            summary: current.summary,
            issued: issued.map((d) => ({ serial: d.serial, kind: d.kind, subjectId: d.subjectId, award: d.award, sha256: d.pdfSha256 })),
            ended: ended.map((d) => ({ serial: d.serial, status: d.status })),
          },
        });
      }
    });
    deps.afterCommit();
  }

  return {
    plan,

    /** POST /admin/certificates/{r}/issue: checks what it can now (published, kinds, templates), then queues the job. */
    async issue(actor: OperationActor, round: ReviewRound, body: CertificateIssueBody): Promise<CertificateIssueStarted> {
      const req: IssueRequest = { round, kinds: body.kinds, templateIds: body.templateIds ?? null, participationForAll: body.participationForAll };
      const started = await db.transaction(async (tx): Promise<CertificateIssueStarted> => {
        const version = await repo.publishedVersion(tx, round);
        if (!version) throw badRequest(M.notPublished, { reason: 'NOT_PUBLISHED' });
        const live = await repo.liveJob(tx, issueDedupeKey(round));
        if (live) return { jobId: live, resultVersion: version.version, alreadyRunning: true };
        await plan(tx, req, version);
        const runId = randomUUID();
        const jobId = await enqueueJob(tx, { kind: ISSUE_JOB, payload: { runId }, dedupeKey: issueDedupeKey(round) });
        if (await repo.runByJob(tx, jobId)) return { jobId, resultVersion: version.version, alreadyRunning: true };
        await repo.insertRun(tx, {
          id: runId,
          round,
          jobId,
          kinds: [...body.kinds],
          templateIds: body.templateIds ?? null,
          participationForAll: body.participationForAll,
          resultVersion: version.version,
          actorId: actor.auth.accountId,
          actorName: actor.auth.username,
          createdAt: deps.now(),
        });
        await recordOperation(tx, actor, {
          action: 'certificate:issue',
          targetType: 'result_version',
          targetId: version.id,
          summary: `颁发${ROUND_NAMES[round]}证书（${body.kinds.map((k) => CERTIFICATE_KIND_NAMES[k]).join('、')}），依据结果版本 ${version.version}`,
        });
        return { jobId, resultVersion: version.version, alreadyRunning: false };
      });
      if (!started.alreadyRunning) deps.kickJobs();
      return started;
    },

    /** The job (lib/jobs.ts): resumable, each document in its own short transaction. */
    async runJob(job: JobRow, ctx: JobContext): Promise<void> {
      const runId = (job.payload as { runId?: string }).runId;
      const run = runId ? await repo.run(db, runId) : null;
      if (!run || run.finishedAt) return;
      const version = await repo.publishedVersion(db, run.round);
      if (!version) throw new Error(M.notPublished);
      const targets = await plan(db, { round: run.round, kinds: run.kinds as CertificateKind[], templateIds: run.templateIds, participationForAll: run.participationForAll }, version);
      const year = beijingYear((await repo.firstPublishedAt(db, run.round)) ?? deps.now());
      const total = targets.length + 1;
      await ctx.progress(0, total);
      const backgrounds = new Map<string, Buffer | null>();
      let done = 0;
      for (const target of targets) {
        if (ctx.signal.aborted) throw new Error('certificate issuing interrupted');
        await issueOne(run, version, target, year, backgrounds);
        done += 1;
        await ctx.progress(done);
      }
      await endMissing(run, targets);
      await finish(run, version);
      await ctx.progress(total);
    },

    async job(jobId: string): Promise<CertificateJobView> {
      const row = await repo.runView(repo.runOfJob(jobId));
      if (!row) throw notFound(M.jobNotFound);
      return toJobView(row);
    },

    async overview(): Promise<CertificateOverview> {
      const rounds: CertificateRoundOverview[] = [];
      for (const round of REVIEW_ROUNDS) {
        const [version, issuedVersion, counts, last] = await Promise.all([
          repo.publishedVersion(db, round),
          repo.issuedVersion(round),
          repo.counts(round),
          repo.runView(repo.lastRunOf(round)),
        ]);
        rounds.push({
          round,
          publishedVersion: version?.version ?? null,
          issuedVersion,
          counts: counts.map((c) => ({ kind: c.kind, status: c.status, count: Number(c.count) })),
          lastJob: last ? toJobView(last) : null,
          kinds: [...CERTIFICATE_KINDS_BY_ROUND[round]],
        });
      }
      return { rounds };
    },
  };
}
export type IssueService = ReturnType<typeof createIssueService>;

type RunView = NonNullable<Awaited<ReturnType<CertificatesDeps['repo']['runView']>>>;

function toJobView({ run, job }: RunView): CertificateJobView {
  const status = job?.status ?? (run.finishedAt ? 'DONE' : 'QUEUED');
  return {
    id: run.jobId,
    round: run.round,
    status,
    progress: { done: job?.done ?? 0, total: job?.total ?? 0 },
    summary: status === 'DONE' ? run.summary : null,
    error: status === 'FAILED' ? (job?.lastError ?? null) : null,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? job?.finishedAt?.toISOString() ?? null,
  };
}
