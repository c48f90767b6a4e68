import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { CUT_TOP_N_MAX } from '@contest/shared';

/** The N the page opens with when the URL names none; the operator sets the promotion's own. */
export const DEFAULT_TOP_N = 10;

/**
 * The page's cut in the URL (?topN=&perTrack=), as the console keeps its list filters there
 * (docs/rules/judging-quality.md, "In the console"): a reload or a shared link shows the same
 * normalisation effect and starts the confidence form with the same N. No topN: the default; an
 * empty one: the field was cleared (nothing is asked until an N is typed); anything else out of
 * range: the default.
 */
export function useQualityCut() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('topN');
  const parsed = raw === null ? DEFAULT_TOP_N : raw === '' ? null : Number(raw);
  const topN = parsed === null ? null : Number.isInteger(parsed) && parsed >= 1 && parsed <= CUT_TOP_N_MAX ? parsed : DEFAULT_TOP_N;
  const perTrack = params.get('perTrack') === 'true';

  const set = useCallback(
    (name: 'topN' | 'perTrack', value: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value === null) next.delete(name);
          else next.set(name, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setTopN = useCallback((n: number | null) => set('topN', n === null ? '' : n === DEFAULT_TOP_N ? null : String(n)), [set]);
  const setPerTrack = useCallback((on: boolean) => set('perTrack', on ? 'true' : null), [set]);
  return { topN, perTrack, setTopN, setPerTrack };
}

/** Why a bootstrap run failed, as a reason key of `quality.cut.failedReasons`. */
export type CutFailureReason = 'INTERRUPTED' | 'WORKER_EXITED' | 'OUT_OF_MEMORY' | 'UNKNOWN';

/**
 * The server keeps a FAILED run's error as text: 'interrupted' for a run lost with its instance,
 * else the computation's own message (the worker thread's exit, Node's memory limit, or whatever
 * the computation threw). The page shows a reason in the page's language, never that text.
 */
export function cutFailureReason(error: string | null | undefined): CutFailureReason {
  if (!error) return 'UNKNOWN';
  if (error === 'interrupted') return 'INTERRUPTED';
  if (/out of memory|memory limit|allocation failed/i.test(error)) return 'OUT_OF_MEMORY';
  if (/worker exited|worker terminated/i.test(error)) return 'WORKER_EXITED';
  return 'UNKNOWN';
}
