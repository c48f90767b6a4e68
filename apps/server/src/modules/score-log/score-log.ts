/**
 * 评分存证 (docs/rules/results.md, "Score log"): the tamper-evident score log, the one place that writes
 * and checks it. docs/api-results.md ("Score log") describes the canonical form.
 *
 * - `appendScoreLog(tx, …)` is called inside the transaction that makes the fact (a submit, a
 *   return, a promotion, a publication…): the entry exists exactly when the fact does, and a
 *   rollback takes it away with no gap, because seq is read from the last entry (no sequence).
 * - Appends are serialised by a transaction-level advisory lock taken before the last entry is
 *   read, so two transactions can never both append after the same entry: the chain stays
 *   linear and gap-free across instances. The lock is held to the commit; appends are the last
 *   step of their transactions (nothing is locked after them), so it is held briefly and never
 *   waited on while holding it.
 * - `verifyScoreLog(db)` reads the chain in seq order in batches (keyset on the primary key),
 *   recomputes every hash and checks the links and the numbering, then the published heads and
 *   the live sheets (docs/security.md).
 */
import { createHash } from 'node:crypto';
import { asc, desc, eq, gt, sql } from 'drizzle-orm';
import {
  SCORE_LOG_FORMAT_VERSION,
  SCORE_LOG_GENESIS,
  merkleRoot,
  scoreLogCanonical,
  type ReviewRound,
  type ScoreLogAnchorMismatch,
  type ScoreLogBrokenEntry,
  type ScoreLogHashed,
  type ScoreLogKind,
  type ScoreLogVerifyResult,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { scoreLog, scoreLogAnchors } from '../../db/schema/score-log.js';
import { accountsView } from '../auth/auth.read-model.js';
import { createScoresRepository } from '../review/scores.repository.js';
import { compareSheets, type LastSheetEntry, type SheetSource } from './live-check.js';

/** PostgreSQL advisory lock id of score-log appends (beside settings' 7_310_425_001 and the rounds'). */
export const SCORE_LOG_LOCK_ID = 7_310_425_301;

export interface ScoreLogActor {
  id: string;
  name: string;
}

export interface ScoreLogAppend {
  kind: ScoreLogKind;
  round: ReviewRound | null;
  /** What the entry is about: `prelim_doc` (a project), `promotion`, `result_version`, `appeal`… */
  subjectType: string;
  subjectId: string;
  /** Who did it; null for the system. */
  actor: ScoreLogActor | null;
  /** The facts (scores, reason, ids, digests). Plain JSON: stored and hashed as JSON. */
  payload: Record<string, unknown>;
  /** When (default now); hashed as ISO 8601 UTC with milliseconds. */
  at?: Date;
}

export type ScoreLogRow = typeof scoreLog.$inferSelect;

/** Hex SHA-256 of UTF-8 text. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** SHA-256 of bytes for the shared Merkle functions (node:crypto). */
export const sha256Bytes = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());

/** The hash an entry must carry: SHA-256 over its canonical form (shared `scoreLogCanonical`). */
export function scoreLogHash(entry: ScoreLogHashed): string {
  return sha256Hex(scoreLogCanonical(entry));
}

/** A stored row as hashed (times as UTC ISO with milliseconds, as written). */
export function hashedOf(row: Pick<ScoreLogRow, 'v' | 'seq' | 'kind' | 'round' | 'subjectType' | 'subjectId' | 'actorId' | 'actorName' | 'payload' | 'at' | 'prevHash'>): ScoreLogHashed {
  return {
    v: row.v,
    seq: row.seq,
    kind: row.kind,
    round: row.round,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    actorId: row.actorId,
    actorName: row.actorName,
    payload: row.payload,
    at: row.at.toISOString(),
    prevHash: row.prevHash,
  };
}

/**
 * The payload as JSON sees it (Dates become ISO strings, undefined members go), which is what
 * jsonb stores and gives back: hashing this form makes the stored row recompute to its hash.
 */
function plainJson(payload: Record<string, unknown>): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(payload)) as unknown;
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) throw new Error('score log: the payload must be a JSON object');
  return plain as Record<string, unknown>;
}

/**
 * Appends one entry inside the caller's transaction `tx` (never the pool: on PGlite that
 * deadlocks, on PostgreSQL it would commit apart from the fact). Answers the stored row.
 */
export async function appendScoreLog(tx: Db, input: ScoreLogAppend): Promise<ScoreLogRow> {
  const payload = plainJson(input.payload);
  const at = input.at ?? new Date();
  await tx.execute(sql`select pg_advisory_xact_lock(${SCORE_LOG_LOCK_ID})`);
  // Read after the lock: READ COMMITTED takes a fresh snapshot per statement, so this sees the
  // entry of the transaction that held the lock before (committed before its lock went).
  const [last] = await tx.select({ seq: scoreLog.seq, hash: scoreLog.hash }).from(scoreLog).orderBy(desc(scoreLog.seq)).limit(1);
  // Written in the current form (v2: the actor's name is stored, not hashed; docs "The canonical form").
  const entry: ScoreLogHashed = {
    v: SCORE_LOG_FORMAT_VERSION,
    seq: (last?.seq ?? 0) + 1,
    kind: input.kind,
    round: input.round,
    subjectType: input.subjectType,
    subjectId: input.subjectId,
    actorId: input.actor?.id ?? null,
    actorName: input.actor?.name ?? '',
    payload,
    at: at.toISOString(),
    prevHash: last?.hash ?? SCORE_LOG_GENESIS,
  };
  const [row] = await tx
    .insert(scoreLog)
    .values({ ...entry, round: input.round, payload, at, hash: scoreLogHash(entry) })
    .returning();
  return row!;
}

/**
 * The actor of an entry from an authenticated caller: the account's name (experts with their
 * code, `张三（E0001）`), else its username. Read in `tx`.
 */
export async function scoreLogActor(tx: Db, auth: { accountId: string; username: string }): Promise<ScoreLogActor> {
  const [row] = await tx.select({ name: accountsView.name, code: accountsView.code, realm: accountsView.realm }).from(accountsView).where(eq(accountsView.id, auth.accountId));
  const name = row?.name?.trim() || auth.username;
  return { id: auth.accountId, name: row?.realm === 'EXPERT' && row.code ? `${name}（${row.code}）` : name };
}

/** Digest of a text that must not be copied into the log (an expert's comment): hex SHA-256. */
export const textDigest = (text: string): string => sha256Hex(text);

export interface VerifyOptions {
  /** Entries (and sheets) per read (default 1000). */
  batch?: number;
  /** Where the live sheets come from (default: the review module's reader). */
  sheets?: SheetSource;
}

/**
 * The whole check (docs/api-results.md "Verification"), inside one read-only REPEATABLE READ
 * transaction so the log, the published heads and the sheets are read at one instant (a sheet
 * submitted meanwhile is seen with its entry, or neither):
 *
 * 1. The chain, in seq order. For each entry, in this order of checks:
 *    - GAP: its seq is not the previous seq + 1 (1 for the first): an entry is missing. Named by
 *      the missing seq.
 *    - PREV_MISMATCH: its prevHash is not the previous entry's stored hash (the genesis for seq 1).
 *    - HASH_MISMATCH: its stored hash is not the SHA-256 of its canonical form: it was edited.
 *    The first failure is answered; the read goes on to the end so count / lastSeq / lastHash
 *    describe the whole stored log.
 * 2. The published heads (score_log_anchors): the entry at each head's seq recomputes to the
 *    published hash, and the Merkle root over the recomputed hashes of 1..seq is the published
 *    root. Recomputing the whole chain after an edit cannot satisfy this.
 * 3. The live sheets against their last SCORE_SUBMITTED / SCORE_RETURNED / SCORE_ABSTAINED entry (live-check.ts).
 */
export async function verifyScoreLog(db: Db, options: VerifyOptions = {}): Promise<ScoreLogVerifyResult> {
  const batch = Math.max(1, Math.floor(options.batch ?? 1000));
  const sheets: SheetSource = options.sheets ?? ((tx, afterId, limit) => createScoresRepository().sheetsForLogCheck(tx, afterId, limit));
  return db.transaction(
    async (tx) => {
      let count = 0;
      let prevSeq = 0;
      let prevHash = SCORE_LOG_GENESIS;
      let firstBroken: ScoreLogBrokenEntry | undefined;
      const broken = (b: ScoreLogBrokenEntry) => {
        firstBroken ??= b;
      };
      /** Recomputed hash of every entry by position (index seq - 1), for the published heads. */
      const recomputed: string[] = [];
      const lastOfSheet = new Map<string, LastSheetEntry>();
      for (;;) {
        const rows = await tx.select().from(scoreLog).where(gt(scoreLog.seq, prevSeq)).orderBy(asc(scoreLog.seq)).limit(batch);
        for (const row of rows) {
          count++;
          const expected = scoreLogHash(hashedOf(row));
          if (row.seq === count) recomputed.push(expected);
          if (row.seq !== prevSeq + 1) broken({ seq: prevSeq + 1, reason: 'GAP', expected: String(prevSeq + 1), found: String(row.seq) });
          else if (row.prevHash !== prevHash) broken({ seq: row.seq, reason: 'PREV_MISMATCH', expected: prevHash, found: row.prevHash });
          else if (expected !== row.hash) broken({ seq: row.seq, reason: 'HASH_MISMATCH', expected, found: row.hash });
          const sheetId = row.payload.sheetId;
          if ((row.kind === 'SCORE_SUBMITTED' || row.kind === 'SCORE_RETURNED' || row.kind === 'SCORE_ABSTAINED') && typeof sheetId === 'string') {
            lastOfSheet.set(sheetId, { seq: row.seq, kind: row.kind, payload: row.payload });
          }
          prevSeq = row.seq;
          prevHash = row.hash;
        }
        if (rows.length < batch) break;
      }

      const anchors = await tx.select().from(scoreLogAnchors).orderBy(asc(scoreLogAnchors.seq), asc(scoreLogAnchors.publishedAt));
      let firstMismatch: ScoreLogAnchorMismatch | undefined;
      for (const a of anchors) {
        const base = { anchorId: a.id, round: a.round, version: a.version, seq: a.seq };
        if (a.seq > recomputed.length) firstMismatch = { ...base, reason: 'ANCHOR_ENTRY_MISSING', expected: a.headHash, found: '' };
        else if (a.seq > 0 && recomputed[a.seq - 1] !== a.headHash) firstMismatch = { ...base, reason: 'ANCHOR_HEAD_MISMATCH', expected: a.headHash, found: recomputed[a.seq - 1]! };
        else {
          const root = merkleRoot(sha256Bytes, recomputed.slice(0, a.seq));
          if (root !== a.merkleRoot) firstMismatch = { ...base, reason: 'ANCHOR_ROOT_MISMATCH', expected: a.merkleRoot, found: root };
        }
        if (firstMismatch) break;
      }

      const live = await compareSheets(tx, sheets, lastOfSheet, batch);
      return {
        ok: firstBroken === undefined && firstMismatch === undefined && live.firstDifference === undefined,
        count,
        lastSeq: prevSeq,
        lastHash: prevHash,
        ...(firstBroken ? { firstBroken } : {}),
        anchors: { count: anchors.length, ...(firstMismatch ? { firstMismatch } : {}) },
        live,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
