import type { ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';

/**
 * Projects whose single scores are sealed: a project of the live final while it is presented and
 * scored (docs/live-final.md, "Sealing"). The score query leaves their sheets out of the round's
 * computation and masks them in its detail until the seal lifts. The live-final module provides
 * the rule (this module does not read its tables); without one nothing is sealed.
 */
export function createScoreSeal() {
  let rule: ((tx: Db) => Promise<readonly string[]>) | null = null;
  return {
    provide(fn: (tx: Db) => Promise<readonly string[]>): void {
      rule = fn;
    },
    async sealed(tx: Db, round: ReviewRound): Promise<ReadonlySet<string>> {
      return new Set(round === 'FINAL' && rule ? await rule(tx) : []);
    },
  };
}
export type ScoreSeal = ReturnType<typeof createScoreSeal>;
