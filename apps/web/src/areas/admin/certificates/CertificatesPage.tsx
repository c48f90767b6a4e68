/**
 * 证书管理 (/admin/results/certificates, docs/certificates.md, "Issuing"): per round (初赛 / 决赛
 * tabs, ?round= in the URL) the published result version, the version the valid documents were
 * made from and their counts; the issuing panel (kinds, start, the job's progress and its summary);
 * the issued documents (filters in the URL, each downloadable, all of them as one zip).
 * Issuing needs certificate:issue, downloads certificate:download; without them the page only reads.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Card, Checkbox, Descriptions, Progress, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  CERTIFICATE_STATUSES,
  ROUND_SLUGS,
  certificateVerifyPath,
  type CertificateDocumentRow,
  type CertificateKind,
  type CertificateRoundOverview,
  type ReviewRound,
} from '@contest/shared';
import { CardTitle, ExportButton, KitTabs, SearchTable, beijingTitle, formatDateTime, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { CertificateStatusTag, messageOf, useCertificateMessage } from '../../../components/certificates';
import { useFeedback } from '../../../components/feedback';
import { api } from '../../../lib/api';
import { Permission, usePermission } from '../../../lib/permission';
import { saveBlob } from '../../../lib/save-blob';
import { CERTIFICATE_QUERY_KEYS, documentPdfPath, fetchDocuments, fetchJob, fetchOverview, startIssue, zipPath } from './certificates-api';
import { CERTIFICATE_PATHS } from './certificate-paths';
import '../admin-pages.css';
import './certificates.css';

const ROUNDS: readonly ReviewRound[] = ['PRELIMINARY', 'FINAL'];
const roundOfSlug = (slug: string | null): ReviewRound => (slug === ROUND_SLUGS.FINAL ? 'FINAL' : 'PRELIMINARY');
/** How often a running job's progress is read. */
export const JOB_POLL_MS = 1000;

export function CertificatesPage() {
  const { t } = useTranslation('certificates');
  const [params, setParams] = useSearchParams();
  const round = roundOfSlug(params.get('round'));
  const overview = useQuery({ queryKey: CERTIFICATE_QUERY_KEYS.overview, queryFn: fetchOverview });

  const setRound = (key: string) =>
    setParams(
      () => {
        // Each round's filters are its own.
        const next = new URLSearchParams();
        if (key === ROUND_SLUGS.FINAL) next.set('round', key);
        return next;
      },
      { replace: true },
    );

  return (
    <section className="admin-page certificates-admin" data-testid="certificates-page">
      <h1 className="admin-page__title">{t('issue.title')}</h1>
      <Typography.Paragraph type="secondary" className="certificates-admin__intro">
        {t('issue.intro')}
      </Typography.Paragraph>
      {overview.isError ? (
        <Result
          status="warning"
          title={t('common.loadFailed')}
          extra={<Button onClick={() => void overview.refetch()}>{t('common.reload')}</Button>}
          data-testid="certificates-failed"
        />
      ) : (
        <KitTabs
          activeKey={ROUND_SLUGS[round]}
          onChange={setRound}
          items={ROUNDS.map((r) => {
            const state = overview.data?.rounds.find((s) => s.round === r);
            return {
              key: ROUND_SLUGS[r],
              txtMes: t(`round.${r}`),
              // Only the open round is mounted: both would read the same URL filters.
              component: r !== round ? null : !overview.data ? <Skeleton active paragraph={{ rows: 6 }} /> : state ? <RoundPanel state={state} /> : null,
            };
          })}
        />
      )}
    </section>
  );
}

function RoundPanel({ state }: { state: CertificateRoundOverview }) {
  return (
    <div className="certificates-round" data-testid={`certificates-round-${ROUND_SLUGS[state.round]}`}>
      <IssueCard state={state} />
      <DocumentsCard state={state} />
    </div>
  );
}

function IssueCard({ state }: { state: CertificateRoundOverview }) {
  const { t } = useTranslation('certificates');
  const translate = useCertificateMessage();
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const can = usePermission();
  const mayIssue = can({ codes: ['certificate:issue'] });
  const slug = ROUND_SLUGS[state.round];
  const [kinds, setKinds] = useState<CertificateKind[]>(() => [...state.kinds]);
  const [forAll, setForAll] = useState(false);
  const [starting, setStarting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(state.lastJob?.id ?? null);

  const job = useQuery({
    queryKey: CERTIFICATE_QUERY_KEYS.job(jobId ?? ''),
    queryFn: () => fetchJob(jobId!),
    enabled: jobId !== null,
    initialData: state.lastJob && state.lastJob.id === jobId ? state.lastJob : undefined,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'QUEUED' || status === 'RUNNING' ? JOB_POLL_MS : false;
    },
  });
  const running = job.data?.status === 'QUEUED' || job.data?.status === 'RUNNING';

  // A job that ends changes the counts and the documents.
  const lastStatus = useRef(job.data?.status);
  useEffect(() => {
    const status = job.data?.status;
    const was = lastStatus.current;
    lastStatus.current = status;
    if ((was === 'QUEUED' || was === 'RUNNING') && (status === 'DONE' || status === 'FAILED')) {
      void queryClient.invalidateQueries({ queryKey: CERTIFICATE_QUERY_KEYS.overview });
      void queryClient.invalidateQueries({ queryKey: CERTIFICATE_QUERY_KEYS.documents(state.round) });
    }
  }, [job.data?.status, queryClient, state.round]);

  const start = async () => {
    setRefusal(null);
    setStarting(true);
    try {
      const started = await startIssue(slug, { kinds, participationForAll: kinds.includes('PARTICIPATION') && forAll });
      lastStatus.current = 'QUEUED';
      setJobId(started.jobId);
      void queryClient.invalidateQueries({ queryKey: CERTIFICATE_QUERY_KEYS.job(started.jobId) });
      void (started.alreadyRunning ? message.info(t('issue.alreadyRunning')) : message.success(t('issue.started')));
    } catch (err) {
      setRefusal(translate(messageOf(err)) || t('common.loadFailed'));
    } finally {
      setStarting(false);
    }
  };

  const published = state.publishedVersion !== null;
  const countOf = (kind: CertificateKind, status: string) => state.counts.find((c) => c.kind === kind && c.status === status)?.count ?? 0;

  return (
    <Card size="small" className="cert-card" data-testid="certificates-issue">
      <CardTitle title={t('issue.panel')} />
      {!published && <Alert type="info" showIcon className="cert-block" title={t('issue.notPublished')} data-testid="certificates-unpublished" />}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 1, md: 2 }}
        items={[
          {
            key: 'published',
            label: t('issue.published'),
            children: published ? <strong data-testid="published-version">{t('common.versionN', { n: state.publishedVersion })}</strong> : '--',
          },
          {
            key: 'issued',
            label: t('issue.issued'),
            children:
              state.issuedVersion !== null ? (
                <Space size={4}>
                  <span data-testid="issued-version">{t('common.versionN', { n: state.issuedVersion })}</span>
                  {published && state.issuedVersion !== state.publishedVersion && <Tag color="orange">{t('status.SUPERSEDED')}</Tag>}
                </Space>
              ) : (
                t('issue.none')
              ),
          },
          {
            key: 'counts',
            label: t('issue.counts'),
            span: 2,
            children: (
              <div className="cert-counts" data-testid="certificates-counts">
                {state.kinds.map((kind) => (
                  <div key={kind} className="cert-counts__row">
                    <span className="cert-counts__kind">{t(`kind.${kind}`)}</span>
                    <Space size={[4, 4]} wrap>
                      {CERTIFICATE_STATUSES.map((status) => (
                        <Tag key={status} color={countOf(kind, status) > 0 ? (status === 'VALID' ? 'success' : status === 'SUPERSEDED' ? 'warning' : 'error') : 'default'}>
                          {t('issue.countOf', { status: t(`status.${status}`), count: countOf(kind, status) })}
                        </Tag>
                      ))}
                    </Space>
                  </div>
                ))}
              </div>
            ),
          },
        ]}
      />
      {mayIssue && (
        <div className="cert-issue-form">
          <fieldset className="cert-issue-form__kinds">
            <legend>{t('issue.kinds')}</legend>
            <Checkbox.Group
              value={kinds}
              onChange={(v) => setKinds(v as CertificateKind[])}
              options={state.kinds.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
              disabled={!published || running}
              data-testid="issue-kinds"
            />
          </fieldset>
          {kinds.includes('PARTICIPATION') && (
            <Checkbox checked={forAll} onChange={(e) => setForAll(e.target.checked)} disabled={!published || running} data-testid="issue-for-all">
              {t('issue.participationForAll')}
            </Checkbox>
          )}
          <div>
            <Button type="primary" icon={<SendOutlined />} loading={starting} disabled={!published || running || kinds.length === 0} onClick={() => void start()} data-testid="issue-start">
              {t('issue.start')}
            </Button>
          </div>
        </div>
      )}
      {refusal && (
        <Alert
          type="error"
          showIcon
          className="cert-block"
          title={refusal}
          action={<Link to={CERTIFICATE_PATHS.templates}>{t('templates.title')}</Link>}
          data-testid="issue-refusal"
        />
      )}
      {job.data && <JobProgress job={job.data} />}
    </Card>
  );
}

function JobProgress({ job }: { job: NonNullable<CertificateRoundOverview['lastJob']> }) {
  const { t } = useTranslation('certificates');
  const { done, total } = job.progress;
  const percent = total > 0 ? Math.floor((done / total) * 100) : job.status === 'DONE' ? 100 : 0;
  return (
    <div className="cert-job" data-testid="issue-job" data-status={job.status}>
      <Space size={8} wrap>
        <strong id={`cert-job-${job.id}`}>{t('issue.job')}</strong>
        <Tag color={job.status === 'DONE' ? 'success' : job.status === 'FAILED' ? 'error' : 'processing'} data-testid="issue-job-status">
          {t(`jobStatus.${job.status}`)}
        </Tag>
        <Typography.Text type="secondary">
          {beijingTitle(t('issue.jobAt'))}：{formatDateTime(job.createdAt)}
        </Typography.Text>
      </Space>
      <Progress
        percent={percent}
        status={job.status === 'FAILED' ? 'exception' : job.status === 'DONE' ? 'success' : 'active'}
        format={() => t('issue.jobOf', { done, total })}
        aria-labelledby={`cert-job-${job.id}`}
        data-testid="issue-job-progress"
      />
      {job.summary && (
        <Typography.Text data-testid="issue-job-summary">
          {t('issue.jobSummary', { ...job.summary })}
        </Typography.Text>
      )}
      {job.status === 'FAILED' && <Alert type="error" showIcon title={t('issue.jobFailed', { error: job.error ?? '' })} className="cert-block" />}
    </div>
  );
}

function DocumentsCard({ state }: { state: CertificateRoundOverview }) {
  const { t } = useTranslation('certificates');
  const slug = ROUND_SLUGS[state.round];
  const kinds = state.kinds;
  const fields = useMemo<SearchField[]>(
    () => [
      { name: 'kind', label: 'certificates:issue.filters.kind', kind: 'select', options: kinds.map((k) => ({ value: k, label: `certificates:kind.${k}` })) },
      { name: 'status', label: 'certificates:issue.filters.status', kind: 'select', options: CERTIFICATE_STATUSES.map((s) => ({ value: s, label: `certificates:status.${s}` })) },
      { name: 'keyword', label: 'certificates:issue.filters.keyword', kind: 'text', placeholder: 'certificates:issue.filters.keywordPlaceholder', width: 240 },
    ],
    [kinds],
  );

  const columns: SearchColumns<CertificateDocumentRow> = [
    { title: t('issue.columns.serial'), dataIndex: 'serial', key: 'serial', sorter: true, render: (serial: string) => <span className="cert-mono">{serial}</span> },
    { title: t('issue.columns.kind'), dataIndex: 'kind', render: (kind: CertificateKind) => t(`kind.${kind}`) },
    { title: t('issue.columns.holder'), dataIndex: 'holderName', key: 'holderName', sorter: true },
    { title: t('issue.columns.project'), dataIndex: 'projectName', render: (v: string | null) => v || '--' },
    { title: t('issue.columns.award'), dataIndex: 'award', render: (v: string | null) => v || '--' },
    {
      title: t('issue.columns.status'),
      dataIndex: 'status',
      render: (_, row) => (
        <div className="cert-status">
          <CertificateStatusTag status={row.status} />
          {row.successorSerial && (
            <Typography.Text type="secondary" className="cert-status__successor">
              {t('issue.successor', { serial: row.successorSerial })}
            </Typography.Text>
          )}
        </div>
      ),
    },
    { title: t('issue.columns.resultVersion'), dataIndex: 'resultVersion', render: (n: number) => t('common.versionN', { n }) },
    { title: t('issue.columns.issuedAt'), dataIndex: 'issuedAt', key: 'issuedAt', dateTime: true, sorter: true },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => <DocumentActions row={row} />,
    },
  ];

  return (
    <Card size="small" className="cert-card" data-testid="certificates-documents">
      <CardTitle title={t('issue.documents')} />
      <SearchTable<CertificateDocumentRow>
        queryKey={CERTIFICATE_QUERY_KEYS.documents(state.round)}
        fetchPage={(q) => fetchDocuments({ ...q, round: state.round })}
        rowKey="id"
        columns={columns}
        searchFields={fields}
        urlState
        toolbar={(filters) => {
          const f = filters as { kind?: string; status?: string };
          return (
            <Permission codes={['certificate:download']}>
              <ExportButton
                url={zipPath(slug)}
                params={{ ...(f.kind ? { kind: f.kind } : {}), ...(f.status ? { status: f.status } : {}) }}
                fallbackName={`certificates-${slug}.zip`}
                data-testid="certificates-zip"
              >
                {t('issue.zip')}
              </ExportButton>
            </Permission>
          );
        }}
      />
    </Card>
  );
}

function DocumentActions({ row }: { row: CertificateDocumentRow }) {
  const { t } = useTranslation('certificates');
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const result = await api.get(documentPdfPath(row.id), { responseType: 'blob' });
      if ('blob' in result) saveBlob(result, `${row.serial}.pdf`);
    } catch {
      // The client has shown the refusal.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space size={0}>
      <Permission codes={['certificate:download']}>
        <Button type="link" size="small" loading={busy} onClick={() => void download()} aria-label={`${t('common.download')} ${row.serial}`} data-testid="document-download">
          {t('common.download')}
        </Button>
      </Permission>
      <a href={certificateVerifyPath(row.serial)} target="_blank" rel="noopener noreferrer" className="cert-verify-link" data-testid="document-verify">
        {t('common.verifyLink')}
      </a>
    </Space>
  );
}
