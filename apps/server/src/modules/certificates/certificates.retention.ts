/**
 * For data retention (docs/certificates.md, "Retention"): documents keep a snapshot of their
 * holder's name for the verification page; once retention anonymises a person, that snapshot
 * becomes initials. Called by the retention job in its own transaction.
 */
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { certificates } from '../../db/schema/certificates.js';

/**
 * Initials of a name: each Latin word's first letter with a dot (`John Smith` -> `J. S.`); a name in
 * Chinese characters keeps its first character followed by 某 (`王小明` -> `王某`). Already
 * anonymised names stay as they are.
 */
export function initialsOf(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) return trimmed;
  if (/^[\p{Script=Han}]/u.test(trimmed)) return trimmed.endsWith('某') && [...trimmed].length === 2 ? trimmed : `${[...trimmed][0]}某`;
  return trimmed
    .split(/\s+/)
    .map((w) => (/^\p{L}\.$/u.test(w) ? w : `${[...w][0]!.toUpperCase()}.`))
    .join(' ');
}

/**
 * Replaces the holder name of every document of these teams (team kinds) and experts (letters)
 * by its initials. Answers how many documents changed and the storage keys of their PDFs: the
 * printed PDFs carry the full names (and, for teams, the members), so the caller deletes those
 * objects from the store after its commit; downloads of them then answer 404 (证书文件尚未生成).
 */
export async function anonymiseCertificateHolders(tx: Db, subjects: { teamIds?: readonly string[]; expertIds?: readonly string[] }): Promise<{ updated: number; storageKeys: string[] }> {
  const teamIds = [...(subjects.teamIds ?? [])];
  const expertIds = [...(subjects.expertIds ?? [])];
  if (teamIds.length === 0 && expertIds.length === 0) return { updated: 0, storageKeys: [] };
  const rows = await tx
    .select({ id: certificates.id, holderName: certificates.holderName, storageKey: certificates.storageKey })
    .from(certificates)
    .where(
      or(
        teamIds.length ? and(eq(certificates.holderType, 'TEAM'), inArray(certificates.teamId, teamIds)) : undefined,
        expertIds.length ? and(eq(certificates.holderType, 'EXPERT'), inArray(certificates.expertId, expertIds)) : undefined,
      ),
    )
    .for('update');
  let updated = 0;
  for (const row of rows) {
    const initials = initialsOf(row.holderName);
    if (initials === row.holderName) continue;
    await tx.update(certificates).set({ holderName: initials }).where(eq(certificates.id, row.id));
    updated += 1;
  }
  return { updated, storageKeys: rows.map((r) => r.storageKey) };
}
