/** 评审质量: the cut's N in the URL, and a failed bootstrap told by its reason (quality-url.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { CalibrationView, CutConfidenceRunView, NormalisationView } from '@contest/shared';
import { renderRoute } from '../../../test/render-route';
import { superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { ID, SLOW, callsTo, mockGet } from '../review/review-fixtures';
import { cutFailureReason } from './quality-url';

import zhReview from '../../../i18n/locales/zh-cn/review.json';
import enReview from '../../../i18n/locales/en/review.json';

const PATH = '/admin/grade/judging-quality';
const CAL = '/admin/review/prelim/calibration';
const NORM = '/admin/review/prelim/normalisation';
const CUT = '/admin/review/prelim/cut-confidence';
const RULE = { aggregate: 'TRIMMED_MEAN' as const, minScoresForTrim: 5, tieBreak: ['RULE_SCORE' as const] };
const REASONS_ZH = zhReview.quality.cut.failedReasons;

const calibration: CalibrationView = {
  round: 'PRELIMINARY',
  rule: RULE,
  leniencyFactor: 1.5,
  panel: { leniencyMean: 0, leniencySd: 1, experts: 1 },
  experts: [
    {
      expertId: ID(101),
      code: 'E0001',
      name: '专家1',
      organization: '第1医科大学',
      scored: 3,
      sharedProjects: 3,
      meanTotal: 80,
      leniency: 0,
      spread: 2,
      agreement: 1,
      flags: [],
    },
  ],
};

const normalisation = (topN: number, perTrack: boolean): NormalisationView => ({
  round: 'PRELIMINARY',
  declared: 'TRIMMED_MEAN',
  alternatives: ['ZSCORE'],
  topN,
  perTrack,
  moves: [],
});

const failed = (error: string | null): CutConfidenceRunView => ({
  id: 'run-1',
  round: 'PRELIMINARY',
  status: 'FAILED',
  topN: 10,
  perTrack: false,
  seed: 1,
  rounds: 2000,
  aggregate: 'TRIMMED_MEAN',
  stale: false,
  startedAt: '2025-07-10T02:00:00Z',
  finishedAt: '2025-07-10T02:00:05Z',
  startedBy: '运营一号',
  error,
  projects: [],
});

const answers = (run: CutConfidenceRunView | null = null) => ({
  [CAL]: calibration,
  [NORM]: (params: Record<string, unknown> | undefined) => normalisation(Number(params?.topN), params?.perTrack === 'true'),
  [CUT]: run,
});

describe('judging quality: URL and failures', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('the normalisation effect reads N and the mode from the URL, and writes them back', async () => {
    const get = mockGet(superAdmin(), answers());
    const { router } = renderRoute(`${PATH}?topN=15&perTrack=true`);
    await waitFor(() => expect(callsTo(get, NORM)[0]?.[1]).toEqual({ params: { topN: 15, perTrack: 'true' } }), SLOW);
    const input = (await screen.findByLabelText('入围名额 N', { selector: '#normalisation-top-n' }, SLOW)) as HTMLInputElement;
    expect(input.value).toBe('15');

    fireEvent.change(input, { target: { value: '20' } });
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('topN')).toBe('20'));
    await waitFor(() => expect(callsTo(get, NORM).at(-1)![1]).toEqual({ params: { topN: 20, perTrack: 'true' } }));
    expect(router.state.location.pathname).toBe(PATH);

    fireEvent.click(screen.getByLabelText('总排名', { selector: '[data-testid="normalisation-mode"] input' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('perTrack')).toBeNull());
    await waitFor(() => expect(callsTo(get, NORM).at(-1)![1]).toEqual({ params: { topN: 20, perTrack: 'false' } }));
  });

  it('without topN in the URL the default N; a value out of range falls back to it', async () => {
    const get = mockGet(superAdmin(), answers());
    renderRoute(`${PATH}?topN=abc`);
    await waitFor(() => expect(callsTo(get, NORM)[0]?.[1]).toEqual({ params: { topN: 10, perTrack: 'false' } }), SLOW);
  });

  it.each([
    ['interrupted', 'INTERRUPTED'],
    ['cut-confidence worker exited with 1', 'WORKER_EXITED'],
    ['Worker terminated due to reaching memory limit: JS heap out of memory', 'OUT_OF_MEMORY'],
    ['Cannot read properties of undefined (reading \'length\')', 'UNKNOWN'],
    [null, 'UNKNOWN'],
  ] as const)('a failed run with %j reads %s', (error, reason) => {
    expect(cutFailureReason(error)).toBe(reason);
  });

  it('a failed run shows the reason in the page\'s language, never the computation\'s text', async () => {
    const raw = 'cut-confidence worker exited with 1';
    mockGet(superAdmin(), answers(failed(raw)));
    renderRoute(PATH);
    const alert = await screen.findByTestId('cut-failed', {}, SLOW);
    expect(alert.textContent).toContain(REASONS_ZH.WORKER_EXITED);
    expect(alert.textContent).not.toContain(raw);
  });

  it('an unknown failure shows the general reason; in English too', async () => {
    mockGet(superAdmin(), answers(failed('boom: internal detail')));
    renderRoute(PATH, { search: '?lang=en' });
    const alert = await screen.findByTestId('cut-failed', {}, SLOW);
    expect(alert.textContent).toContain(enReview.quality.cut.failedReasons.UNKNOWN);
    expect(alert.textContent).not.toContain('boom');
  });
});
