import { useState } from 'react';
import { Alert, Button, Input, Skeleton, Space, Switch, Timeline, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReviewRound } from '@contest/shared';
import { AppDialog, formatDateTimeLabel } from '../../../components/admin-kit';
import { CompareTable, MovementSummary } from './CompareTable';
import { RESULTS_QUERY_KEYS, fetchCompare } from './results-api';
import { errorText, slugOf } from './results-common';

export interface CompareDialogProps {
  round: ReviewRound;
  /** The two versions, older first; null: closed. */
  pair: { a: number; b: number } | null;
  onClose(): void;
}

/**
 * 版本对比: every project's rank, score and outcome in the older and the newer version, how it moved,
 * the appeals linked to it, and why each version in between was published. 只看变化 asks the server
 * for the changed projects only; the search narrows by project, team or organisation.
 */
export function CompareDialog({ round, pair, onClose }: CompareDialogProps) {
  const { t } = useTranslation('results');
  const [changedOnly, setChangedOnly] = useState(false);
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  const slug = slugOf(round);
  const a = pair?.a ?? 0;
  const b = pair?.b ?? 0;
  const compare = useQuery({
    queryKey: RESULTS_QUERY_KEYS.compare(slug, a, b, changedOnly, keyword),
    queryFn: () => fetchCompare(slug, { a, b, ...(changedOnly ? { changedOnly: true } : {}), ...(keyword ? { keyword } : {}) }),
    enabled: pair !== null,
    placeholderData: keepPreviousData,
  });
  const data = compare.data;
  const aLabel = t('common.versionN', { n: a });
  const bLabel = t('common.versionN', { n: b });

  return (
    <AppDialog
      open={pair !== null}
      title={t('compare.title', { a: aLabel, b: bLabel })}
      width={1200}
      onCancel={() => {
        setChangedOnly(false);
        setTyped('');
        setKeyword('');
        onClose();
      }}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
      data-testid="compare-dialog"
    >
      {compare.isError && (
        <Alert
          type="error"
          showIcon
          title={errorText(compare.error) ?? t('common.loadFailed')}
          action={<Button size="small" onClick={() => void compare.refetch()}>{t('common.reload')}</Button>}
        />
      )}
      {!data && !compare.isError && <Skeleton active paragraph={{ rows: 6 }} />}
      {data && (
        <div data-testid="compare-view">
          <section className="results-block" aria-label={t('compare.reasons')}>
            <Typography.Title level={5}>{t('compare.reasons')}</Typography.Title>
            <Timeline
              items={data.reasons.map((r) => ({
                key: r.version,
                content: (
                  <div data-testid="compare-reason">
                    <strong>{t('common.versionN', { n: r.version })}</strong>{' '}
                    <Typography.Text type="secondary">
                      {formatDateTimeLabel(r.publishedAt)} · {r.actorName}
                    </Typography.Text>
                    <div className="results-text">{r.reason ?? t('versions.firstVersion')}</div>
                  </div>
                ),
              }))}
            />
          </section>
          <div className="results-toolbar">
            <MovementSummary summary={data.summary} />
            <Space wrap>
              <Input.Search
                allowClear
                value={typed}
                placeholder={t('compare.keyword')}
                aria-label={t('compare.keyword')}
                onChange={(e) => setTyped(e.target.value)}
                onSearch={(v) => setKeyword(v.trim())}
                className="results-search"
              />
              <label className="results-switch">
                <Switch size="small" checked={changedOnly} onChange={setChangedOnly} data-testid="compare-changed-only" />
                <span>{t('compare.changedOnly')}</span>
              </label>
            </Space>
          </div>
          <CompareTable rows={data.rows} aLabel={aLabel} bLabel={bLabel} />
        </div>
      )}
    </AppDialog>
  );
}
