import { useCallback, useMemo, type ReactNode } from 'react';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { REVIEW_ROUNDS, SCORE_LOG_KINDS, type ReviewRound, type ScoreLogBrokenEntry, type ScoreLogEntryView, type ScoreLogKind } from '@contest/shared';
import { EMPTY_CELL, beijingTitle, formatDateTime } from '../../../components/admin-kit';

const SUBJECT_TYPES = ['prelim_doc', 'promotion', 'result_version', 'appeal'] as const;
type KnownSubjectType = (typeof SUBJECT_TYPES)[number];

const isKind = (kind: string): kind is ScoreLogKind => (SCORE_LOG_KINDS as readonly string[]).includes(kind);
const isRound = (round: string | null): round is ReviewRound => round !== null && (REVIEW_ROUNDS as readonly string[]).includes(round);
const isSubjectType = (type: string): type is KnownSubjectType => (SUBJECT_TYPES as readonly string[]).includes(type);

/** Names of the codes an entry holds; a code the page does not know (a later kind) shows as it is. */
export function useScoreLogLabels() {
  const { t } = useTranslation('scoreLog');
  return useMemo(
    () => ({
      kind: (kind: string) => (isKind(kind) ? t(`kind.${kind}`) : kind),
      round: (round: string | null) => (isRound(round) ? t(`round.${round}`) : EMPTY_CELL),
      subjectType: (type: string) => (isSubjectType(type) ? t(`subjectType.${type}`) : type),
    }),
    [t],
  );
}

/** A value to compare character by character: monospace, copyable. */
function Mono({ value, testId }: { value: string; testId: string }) {
  const { t } = useTranslation('scoreLog');
  return (
    <Typography.Text className="score-log-mono" copyable={{ text: value, tooltips: [t('detail.copy'), t('detail.copied')] }} data-testid={testId}>
      {value}
    </Typography.Text>
  );
}

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="score-log-detail__row">
      <span className="score-log-detail__label">{label}</span>
      <span>{children}</span>
    </div>
  );
}

/**
 * One entry, every field: the payload pretty-printed (the stored JSON; the hash is computed over
 * its canonical form, docs/api-results.md), hash and previous hash in full, monospace, copyable.
 * An entry the last verification found broken says why.
 */
export function ScoreLogDetail({ entry, broken }: { entry: ScoreLogEntryView; broken?: ScoreLogBrokenEntry | undefined }) {
  const { t } = useTranslation('scoreLog');
  const labels = useScoreLogLabels();
  const pretty = useCallback((payload: unknown) => JSON.stringify(payload, null, 2), []);
  return (
    <div data-testid="score-log-detail">
      {broken && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('verify.broken', { seq: broken.seq })}
          description={t(`verify.reasons.${broken.reason}`)}
          data-testid="score-log-detail-broken"
        />
      )}
      <Row label={t('fields.seq')}>{entry.seq}</Row>
      <Row label={beijingTitle(t('fields.at'))}>{formatDateTime(entry.at)}</Row>
      <Row label={t('fields.atUtc')}>
        <span className="score-log-mono">{entry.at}</span>
      </Row>
      <Row label={t('fields.kind')}>
        {labels.kind(entry.kind)} <Typography.Text type="secondary">{entry.kind}</Typography.Text>
      </Row>
      <Row label={t('fields.round')}>{labels.round(entry.round)}</Row>
      <Row label={t('fields.subjectType')}>
        {labels.subjectType(entry.subjectType)} <Typography.Text type="secondary">{entry.subjectType}</Typography.Text>
      </Row>
      <Row label={t('fields.subjectId')}>
        <Mono value={entry.subjectId} testId="score-log-detail-subject" />
      </Row>
      <Row label={t('fields.actor')}>{entry.actorName || t('fields.system')}</Row>
      <Row label={t('fields.actorId')}>{entry.actorId ? <Mono value={entry.actorId} testId="score-log-detail-actor" /> : EMPTY_CELL}</Row>
      <Row label={t('fields.hash')}>
        <Mono value={entry.hash} testId="score-log-detail-hash" />
      </Row>
      <Row label={t('fields.prevHash')}>
        <Mono value={entry.prevHash} testId="score-log-detail-prev-hash" />
      </Row>
      <Row label={t('fields.payload')}>
        <pre className="score-log-payload score-log-mono" data-testid="score-log-detail-payload">
          {pretty(entry.payload)}
        </pre>
      </Row>
    </div>
  );
}
