import { Alert, Button, Card, Descriptions, Space, Typography } from 'antd';
import { FileSearchOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { PrelimAdminDetail, QueueNext } from '@contest/shared';
import { AuditPanel, beijingTitle, formatDateTime } from '../../../components/admin-kit';
import { AttachmentList, ContestStatusTag, labelOf, useDictLabels } from '../../../components/contest';
import { ApplicationChars } from './ApplicationChars';
import { ApplicationViewer } from './ApplicationViewer';
import { TRACK_DICT, auditable } from './fields';
import { AUDIT_QUEUE_ID, PRELIM_PATHS } from './paths';
import { PRELIM_QUERY_KEYS } from './prelim-api';
import { PRELIM_AUDIT } from './prelim-audit';
import { AuditQueueShell, SkipButton, useAuditQueue, useSubmissionAudit } from '../components/audited-submission';
import { VideoPlayer } from '../../../components/contest';
import './prelim.css';

const TRACK_TYPES = [TRACK_DICT];

/**
 * 形式审查 (/admin/preliminary/audit/:id): the application PDF in the viewer beside the decision
 * panel (stacked on phones), with the counted characters against the cap, the presentation and
 * the video. With the id `queue` it works through the SUBMITTED materials oldest first: each
 * decision opens the next, 跳过 leaves one for later in this session (sent as `exclude`). With a
 * record's id, a decision goes back to the list.
 */
export function PrelimAuditPage() {
  const { t } = useTranslation('admin');
  const { t: tf } = useTranslation('files');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const queue = id === AUDIT_QUEUE_ID;
  const next = useAuditQueue({ queryKey: PRELIM_QUERY_KEYS.queue, fetchNext: PRELIM_AUDIT.api.next, enabled: queue });
  const one = useQuery({
    queryKey: PRELIM_QUERY_KEYS.detail(id),
    queryFn: () => PRELIM_AUDIT.api.one(id),
    enabled: !queue && id !== '',
    staleTime: 0,
  });
  const current: UseQueryResult<QueueNext<PrelimAdminDetail> | PrelimAdminDetail> = queue ? next.next : one;

  const refreshLists = () => void queryClient.invalidateQueries({ queryKey: PRELIM_QUERY_KEYS.list });
  const audit = useSubmissionAudit(
    PRELIM_AUDIT.api.audit,
    t(PRELIM_AUDIT.audit.done),
    () => {
      refreshLists();
      if (queue) next.advance();
      else {
        void queryClient.invalidateQueries({ queryKey: PRELIM_QUERY_KEYS.detail(id) });
        void navigate(PRELIM_PATHS.list);
      }
    },
    () => {
      refreshLists();
      if (queue) next.advance();
      else void one.refetch();
    },
  );

  return (
    <AuditQueueShell workflow={PRELIM_AUDIT} query={current} recordOf={() => (queue ? (next.next.data?.detail ?? null) : (one.data ?? null))} queue={next}>
      {(doc, _data, backToList) => {
        const docId = doc.id ?? id;
        const busy = current.isFetching;
        return (
          <section className="admin-page prelim-audit" data-testid="prelim-audit-page">
            <div className="prelim-audit__bar">
              <Space wrap>
                {backToList}
                <Button icon={<FileSearchOutlined />} onClick={() => void navigate(PRELIM_PATHS.detail(docId))}>
                  {t('pages.prelim.audit.detail')}
                </Button>
              </Space>
              {queue && next.next.data && (
                <Typography.Text className="prelim-audit__remaining" data-testid="queue-remaining">
                  {t('pages.prelim.audit.remaining', { count: next.next.data.remaining })}
                </Typography.Text>
              )}
            </div>
            {/* The page's h1: the record under audit (focus moves here when the queue advances). */}
            <Typography.Title level={1} className="prelim-audit__title">
              {doc.projectName || t('pages.prelim.untitled')} <ContestStatusTag kind="prelim" status={doc.status} />
            </Typography.Title>
            <div className="prelim-audit__body" aria-busy={busy}>
              <div className="prelim-audit__document">
                <ApplicationViewer key={`${docId}:${doc.application?.uniqueNo ?? ''}`} file={doc.application} />
              </div>
              <div className="prelim-audit__side">
                <AuditFacts doc={doc} />
                <Card size="small" className="prelim-audit__card" title={t('pages.prelim.audit.panelTitle')} data-testid="prelim-audit-decision">
                  {auditable(doc) ? (
                    <AuditPanel
                      resetKey={`${docId}:${doc.version}`}
                      disabled={busy}
                      onSubmit={(decision) => audit(docId, doc.version, decision)}
                      extra={queue && <SkipButton disabled={busy} onClick={() => next.skip(docId)} label={t('pages.prelim.audit.skip')} />}
                    />
                  ) : (
                    <Alert
                      type="info"
                      showIcon
                      title={t('pages.prelim.audit.notSubmitted', { status: tf(`contest.prelimStatus.${doc.status}`) })}
                      data-testid="audit-not-submitted"
                    />
                  )}
                </Card>
              </div>
            </div>
          </section>
        );
      }}
    </AuditQueueShell>
  );
}

/** What the formal check looks at besides the application: who, the counted characters, the other files. */
function AuditFacts({ doc }: { doc: PrelimAdminDetail }) {
  const { t } = useTranslation('admin');
  const labels = useDictLabels(TRACK_TYPES);
  const warnings = doc.blindWarnings ?? [];
  return (
    <>
      {warnings.length > 0 && (
        // Blind review (docs/security.md): the application names its team; the operator may return it.
        <Alert
          type="warning"
          showIcon
          className="prelim-audit__card"
          title={t('pages.prelim.audit.blindWarning')}
          description={
            <ul className="prelim-audit__blind-list">
              {warnings.map((w) => (
                <li key={`${w.where}:${w.name}`}>
                  {t('pages.prelim.audit.blindFinding', {
                    where: w.where === 'text' ? t('pages.prelim.audit.blindWhereText') : t('pages.prelim.audit.blindWhereMeta', { field: w.where }),
                    name: w.value,
                  })}
                </li>
              ))}
            </ul>
          }
          data-testid="audit-blind-warning"
        />
      )}
      <Card size="small" className="prelim-audit__card" title={t('pages.prelim.sections.project')}>
        <Descriptions
          size="small"
          column={1}
          items={[
            { key: 'chars', label: t('pages.prelim.fields.applicationChars'), children: <ApplicationChars chars={doc.applicationChars} max={doc.maxApplicationChars} /> },
            { key: 'team', label: t('pages.prelim.fields.teamName'), children: doc.teamName || '--' },
            { key: 'org', label: t('pages.prelim.fields.orgName'), children: doc.orgName || '--' },
            { key: 'track', label: t('pages.prelim.fields.track'), children: labelOf(labels.data, TRACK_DICT, doc.track) },
            { key: 'submitted', label: beijingTitle(t('pages.prelim.fields.submittedAt')), children: formatDateTime(doc.submittedAt) ?? '--' },
          ]}
        />
      </Card>
      <Card size="small" className="prelim-audit__card" title={t('kit.attachments')}>
        <Descriptions
          size="small"
          column={1}
          layout="vertical"
          items={[
            { key: 'presentation', label: t('pages.prelim.files.presentation'), children: <AttachmentList files={[doc.presentation]} /> },
            {
              key: 'video',
              label: t('pages.prelim.files.video'),
              children: doc.video ? <VideoPlayer key={doc.video.uniqueNo} file={doc.video} /> : <AttachmentList files={[]} />,
            },
            { key: 'others', label: t('pages.prelim.files.others'), children: <AttachmentList files={doc.others} /> },
          ]}
        />
      </Card>
    </>
  );
}
