/**
 * The review module's score-log entries (docs/rules/results.md, "Score log"), one function per fact, each called as the
 * last step of the transaction that makes the fact (scoring.service, promotion.service). Kept
 * here so the review services gain one line per fact and the payloads are defined in one place
 * (docs "Score log" lists them).
 *
 * Subjects: a score, a return and a re-review are about the project (`prelim_doc`, the
 * materials id used by both rounds), so filtering the log by a project id shows its whole story;
 * the sheet id is in the payload. A promotion is its own subject (`promotion`).
 */
import { canonicalJson, type ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { appendScoreLog, scoreLogActor, sha256Hex, textDigest, type ScoreLogRow } from './score-log.js';

/** Who acted, as the operation log's actor carries it. */
interface Caller {
  auth: { accountId: string; username: string };
}

/** The sheet fields an entry records (scores in points, total stored in half points). */
interface Sheet {
  id: string;
  prelimId: string;
  expertId: string;
  scores: Record<string, number>;
  total: number | null;
  comment: string;
}

const totalPoints = (s: Sheet) => (s.total !== null ? s.total / 2 : Object.values(s.scores).reduce((a, b) => a + b, 0));

const sheetFacts = (s: Sheet) => ({
  sheetId: s.id,
  expertId: s.expertId,
  scores: s.scores,
  total: totalPoints(s),
  // The comment itself stays in the sheet (and its revisions); its digest proves it unchanged.
  commentSha256: textDigest(s.comment),
});

/** SCORE_SUBMITTED: the submitted sheet's criteria scores, total and comment digest. */
export async function logScoreSubmitted(tx: Db, e: { actor: Caller; round: ReviewRound; sheet: Sheet; projectName: string; at?: Date }): Promise<ScoreLogRow> {
  return appendScoreLog(tx, {
    kind: 'SCORE_SUBMITTED',
    round: e.round,
    subjectType: 'prelim_doc',
    subjectId: e.sheet.prelimId,
    actor: await scoreLogActor(tx, e.actor.auth),
    payload: { round: e.round, projectId: e.sheet.prelimId, projectName: e.projectName, ...sheetFacts(e.sheet) },
    ...(e.at ? { at: e.at } : {}),
  });
}

/**
 * SCORE_RETURNED: the sheet as it was submitted (the scores the return takes back) and the
 * reason; `rereview` when the return is part of a re-review of the whole project.
 */
export async function logScoreReturned(
  tx: Db,
  e: { actor: Caller; round: ReviewRound; sheet: Sheet; reason: string; rereview: boolean; projectName?: string; at?: Date },
): Promise<ScoreLogRow> {
  return appendScoreLog(tx, {
    kind: 'SCORE_RETURNED',
    round: e.round,
    subjectType: 'prelim_doc',
    subjectId: e.sheet.prelimId,
    actor: await scoreLogActor(tx, e.actor.auth),
    payload: { round: e.round, projectId: e.sheet.prelimId, ...(e.projectName !== undefined ? { projectName: e.projectName } : {}), ...sheetFacts(e.sheet), reason: e.reason, rereview: e.rereview },
    ...(e.at ? { at: e.at } : {}),
  });
}

/**
 * SCORE_ABSTAINED: the expert stepped back from a project before submitting (docs/rules/review.md,
 * "Abstaining"), with the reason; the sheet's draft scores are not facts and are not logged.
 */
export async function logScoreAbstained(
  tx: Db,
  e: { actor: Caller; round: ReviewRound; sheet: Pick<Sheet, 'id' | 'prelimId' | 'expertId'>; projectName: string; reason: string; at?: Date },
): Promise<ScoreLogRow> {
  return appendScoreLog(tx, {
    kind: 'SCORE_ABSTAINED',
    round: e.round,
    subjectType: 'prelim_doc',
    subjectId: e.sheet.prelimId,
    actor: await scoreLogActor(tx, e.actor.auth),
    payload: { round: e.round, projectId: e.sheet.prelimId, projectName: e.projectName, sheetId: e.sheet.id, expertId: e.sheet.expertId, reason: e.reason },
    ...(e.at ? { at: e.at } : {}),
  });
}

/** REREVIEW: experts added to a project, or every submitted sheet of it returned, with the reason. */
export async function logRereview(
  tx: Db,
  e: {
    actor: Caller;
    round: ReviewRound;
    projectId: string;
    projectName: string;
    reason: string;
    /** ADD_EXPERTS: the experts added (id and code); RETURN_ALL: the sheets returned. */
    addedExperts?: { id: string; code: string }[];
    returnedSheetIds?: string[];
    at?: Date;
  },
): Promise<ScoreLogRow> {
  const mode = e.addedExperts ? 'ADD_EXPERTS' : 'RETURN_ALL';
  return appendScoreLog(tx, {
    kind: 'REREVIEW',
    round: e.round,
    subjectType: 'prelim_doc',
    subjectId: e.projectId,
    actor: await scoreLogActor(tx, e.actor.auth),
    payload: {
      round: e.round,
      projectId: e.projectId,
      projectName: e.projectName,
      mode,
      ...(e.addedExperts ? { addedExperts: e.addedExperts.map((x) => ({ expertId: x.id, code: x.code })) } : {}),
      ...(e.returnedSheetIds ? { returnedSheetIds: e.returnedSheetIds } : {}),
      reason: e.reason,
    },
    ...(e.at ? { at: e.at } : {}),
  });
}

/**
 * PROMOTION: the rule, who went, and a digest of the whole ranking stored in `promotions`
 * (hex SHA-256 of the canonical JSON of `promotions.ranking`, so the stored snapshot can be
 * checked against the log).
 */
export async function logPromotion(
  tx: Db,
  e: {
    actor: Caller;
    promotion: { id: string; mode: string; n: number | null; rule: unknown; ranking: unknown[]; promotedIds: string[]; createdAt: Date };
    ruleText: string;
    added: number;
    already: number;
  },
): Promise<ScoreLogRow> {
  const p = e.promotion;
  return appendScoreLog(tx, {
    kind: 'PROMOTION',
    round: 'PRELIMINARY',
    subjectType: 'promotion',
    subjectId: p.id,
    actor: await scoreLogActor(tx, e.actor.auth),
    payload: {
      promotionId: p.id,
      mode: p.mode,
      n: p.n,
      ruleText: e.ruleText,
      scoringRule: p.rule,
      promotedIds: p.promotedIds,
      added: e.added,
      already: e.already,
      rankedCount: p.ranking.length,
      rankingSha256: sha256Hex(canonicalJson(p.ranking)),
    },
    at: p.createdAt,
  });
}
