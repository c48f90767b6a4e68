/**
 * The score log against the live data (docs/api-results.md "Verification"): a
 * chain that only agrees with itself proves nothing about the scores the ranking reads, so every
 * sheet is compared with its last SCORE_SUBMITTED / SCORE_RETURNED / SCORE_ABSTAINED entry, and every
 * submitted sheet (each counts in a ranking) and every abstained one (it takes a scorer away) must have one.
 */
import { createHash } from 'node:crypto';
import type { ReviewRound, ScoreLogDifference } from '@contest/shared';
import type { Db } from '../../db/client.js';

/** As score-log.ts `textDigest` (hex SHA-256 of the comment), kept here to import nothing of it. */
const textDigest = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');

/** A sheet as the check reads it (review module: scores.repository `sheetsForLogCheck`). */
export interface SheetForCheck {
  id: string;
  round: ReviewRound;
  prelimId: string;
  expertId: string;
  status: 'DRAFT' | 'SUBMITTED' | 'RETURNED' | 'ABSTAINED';
  scores: Record<string, number>;
  /** Half points. */
  total: number | null;
  comment: string;
  expertCode: string | null;
  projectName: string | null;
}

/** Reads sheets in id order after `afterId`, at most `limit`, in the check's transaction. */
export type SheetSource = (tx: Db, afterId: string | null, limit: number) => Promise<SheetForCheck[]>;

export interface LastSheetEntry {
  seq: number;
  kind: 'SCORE_SUBMITTED' | 'SCORE_RETURNED' | 'SCORE_ABSTAINED';
  payload: Record<string, unknown>;
}

const text = (v: unknown): string => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The first field of a submitted sheet that differs from its SCORE_SUBMITTED entry, in a fixed order. */
function firstField(sheet: SheetForCheck, p: Record<string, unknown>): { field: string; expected: string; found: string } | null {
  if (p.projectId !== sheet.prelimId) return { field: 'project', expected: text(p.projectId), found: sheet.prelimId };
  if (p.expertId !== sheet.expertId) return { field: 'expert', expected: text(p.expertId), found: sheet.expertId };
  if (p.round !== undefined && p.round !== sheet.round) return { field: 'round', expected: text(p.round), found: sheet.round };
  const logged = (p.scores ?? {}) as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(logged), ...Object.keys(sheet.scores)])].sort()) {
    if (logged[key] !== sheet.scores[key]) return { field: `scores.${key}`, expected: text(logged[key]), found: text(sheet.scores[key]) };
  }
  // The sheet keeps its total in half points; the entry in points.
  const total = sheet.total !== null ? sheet.total / 2 : Object.values(sheet.scores).reduce((a, b) => a + b, 0);
  if (p.total !== total) return { field: 'total', expected: text(p.total), found: String(total) };
  const digest = textDigest(sheet.comment);
  if (p.commentSha256 !== digest) return { field: 'comment', expected: text(p.commentSha256), found: digest };
  return null;
}

/** Compares every sheet (batches in id order) with the last entries read from the chain. */
export async function compareSheets(
  tx: Db,
  source: SheetSource,
  lastOfSheet: ReadonlyMap<string, LastSheetEntry>,
  batch: number,
): Promise<{ sheets: number; firstDifference?: ScoreLogDifference }> {
  let sheets = 0;
  let first: ScoreLogDifference | undefined;
  const seen = new Set<string>();
  let after: string | null = null;
  for (;;) {
    const rows = await source(tx, after, batch);
    for (const s of rows) {
      sheets++;
      seen.add(s.id);
      after = s.id;
      if (first) continue;
      const last = lastOfSheet.get(s.id);
      const named = { sheetId: s.id, round: s.round, projectId: s.prelimId, projectName: s.projectName ?? '', expertId: s.expertId, expertCode: s.expertCode ?? '' };
      if (s.status === 'SUBMITTED') {
        if (!last) first = { ...named, reason: 'SHEET_NOT_LOGGED', field: 'entry', expected: 'SCORE_SUBMITTED', found: '', seq: null };
        else if (last.kind !== 'SCORE_SUBMITTED') first = { ...named, reason: 'SHEET_STATE_DIFFERS', field: 'status', expected: 'RETURNED', found: s.status, seq: last.seq };
        else {
          const diff = firstField(s, last.payload);
          if (diff) first = { ...named, reason: 'SHEET_FIELD_DIFFERS', ...diff, seq: last.seq };
        }
      } else if (s.status === 'ABSTAINED') {
        if (last?.kind !== 'SCORE_ABSTAINED') first = { ...named, reason: 'SHEET_NOT_LOGGED', field: 'entry', expected: 'SCORE_ABSTAINED', found: last?.kind ?? '', seq: last?.seq ?? null };
      } else if (last?.kind === 'SCORE_ABSTAINED') {
        // An abstention is final: a sheet back in play after it was changed outside the service.
        first = { ...named, reason: 'SHEET_STATE_DIFFERS', field: 'status', expected: 'ABSTAINED', found: s.status, seq: last.seq };
      } else if (last?.kind === 'SCORE_SUBMITTED') {
        first = { ...named, reason: 'SHEET_STATE_DIFFERS', field: 'status', expected: 'SUBMITTED', found: s.status, seq: last.seq };
      }
    }
    if (rows.length < batch) break;
  }
  if (!first) {
    // The log's last word on a sheet is "submitted" and the sheet is gone: a score taken out of the ranking.
    const gone = [...lastOfSheet.entries()].filter(([id, e]) => e.kind === 'SCORE_SUBMITTED' && !seen.has(id)).sort((a, b) => a[1].seq - b[1].seq)[0];
    if (gone) {
      const [sheetId, e] = gone;
      const p = e.payload;
      first = {
        reason: 'SHEET_MISSING',
        sheetId,
        round: (p.round as ReviewRound | undefined) ?? null,
        projectId: text(p.projectId),
        projectName: text(p.projectName),
        expertId: text(p.expertId),
        expertCode: '',
        field: 'entry',
        expected: 'SUBMITTED',
        found: '',
        seq: e.seq,
      };
    }
  }
  return { sheets, ...(first ? { firstDifference: first } : {}) };
}
