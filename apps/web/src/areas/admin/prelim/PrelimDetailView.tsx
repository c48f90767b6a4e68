import type { ReactNode } from 'react';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { TEAM_DICT_TYPES, type PrelimAdminDetail } from '@contest/shared';
import { DetailLayout, type DetailSection } from '../../../components/admin-kit';
import { ContestStatusTag } from '../../../components/contest';
import { piiValue } from '../components/PiiText';
import { ApplicationChars } from './ApplicationChars';
import { FinalHistory } from './FinalHistory';
import { VideoPlayer } from '../../../components/contest';

export interface PrelimDetailViewProps {
  doc: PrelimAdminDetail;
  extra?: ReactNode;
  alert?: ReactNode;
  /** The final-round sections first (决赛详情); otherwise after the project's. */
  finalFirst?: boolean;
}

/** Every field of a project's preliminary materials, its files (video playable), history and final-round state. */
export function PrelimDetailView({ doc, extra, alert, finalFirst = false }: PrelimDetailViewProps) {
  const { t } = useTranslation('admin');

  const project: DetailSection = {
    key: 'project',
    title: t('pages.prelim.sections.project'),
    items: [
      { label: t('pages.prelim.fields.projectName'), value: doc.projectName },
      { label: t('pages.prelim.fields.track'), value: doc.track, dict: TEAM_DICT_TYPES.track },
      {
        label: t('pages.prelim.fields.keywords'),
        value:
          doc.keywords.length > 0 ? (
            <Space size={[4, 4]} wrap>
              {doc.keywords.map((k) => (
                <Tag key={k}>{k}</Tag>
              ))}
            </Space>
          ) : null,
      },
      {
        label: t('pages.prelim.fields.applicationChars'),
        value: <ApplicationChars chars={doc.applicationChars} max={doc.maxApplicationChars} />,
      },
      { label: t('pages.prelim.fields.summary'), value: doc.summary, span: 2 },
      { label: t('pages.prelim.fields.createdAt'), value: doc.createdAt, dateTime: true },
      { label: t('pages.prelim.fields.updatedAt'), value: doc.updatedAt, dateTime: true },
      { label: t('pages.prelim.fields.submittedAt'), value: doc.submittedAt, dateTime: true },
      { label: t('pages.prelim.fields.auditedAt'), value: doc.auditedAt, dateTime: true },
      { label: t('pages.prelim.fields.auditReason'), value: doc.auditReason, span: 2 },
    ],
  };
  const team: DetailSection = {
    key: 'team',
    title: t('pages.prelim.sections.team'),
    items: [
      { label: t('pages.prelim.fields.teamName'), value: doc.teamName },
      { label: t('pages.prelim.fields.orgName'), value: doc.orgName },
      {
        label: t('pages.prelim.fields.account'),
        // The phone comes masked; the eye shows it in full (pii:view). The record is the project (its id).
        value: doc.owner ? (
          <>
            {doc.owner.username}
            {doc.owner.phone && <> / {doc.id ? piiValue('prelim', doc.id, 'owner.phone', doc.owner.phone) : doc.owner.phone}</>}
          </>
        ) : null,
      },
      // Reminders go to teams whose materials are still a draft.
      ...(doc.status === 'DRAFT' ? [{ label: t('pages.prelim.fields.lastRemindedOn'), value: doc.lastRemindedOn ?? t('pages.prelim.drafts.never') }] : []),
    ],
  };
  const video: DetailSection[] = doc.video
    ? [{ key: 'video', title: t('pages.prelim.sections.video'), content: <VideoPlayer file={doc.video} /> }]
    : [];
  const finalStatus = doc.final?.status ?? 'NONE';
  const final: DetailSection[] =
    doc.final || doc.finalHistory.length > 0
      ? [
          {
            key: 'final',
            title: t('pages.prelim.sections.final'),
            items: [
              {
                label: t('pages.prelim.fields.finalStatus'),
                value: (
                  <Tag color={finalStatus === 'IN' ? 'success' : 'default'} data-testid="final-status">
                    {t(`pages.prelim.final.status.${finalStatus}`)}
                  </Tag>
                ),
              },
              { label: t('pages.prelim.fields.time'), value: doc.final?.at, dateTime: true },
              { label: t('pages.prelim.fields.reason'), value: doc.final?.reason, span: 2 },
            ],
          },
          {
            key: 'finalHistory',
            title: t('pages.prelim.sections.finalHistory'),
            content: <FinalHistory entries={doc.finalHistory} />,
          },
        ]
      : [];

  const sections = finalFirst ? [...final, project, team, ...video] : [project, team, ...video, ...final];

  return (
    <DetailLayout
      title={doc.projectName || t('pages.prelim.untitled')}
      status={<ContestStatusTag kind="prelim" status={doc.status} />}
      extra={extra}
      alert={alert}
      sections={sections}
      attachments={[
        { label: t('pages.prelim.files.application'), files: [doc.application] },
        { label: t('pages.prelim.files.presentation'), files: [doc.presentation] },
        { label: t('pages.prelim.files.video'), files: [doc.video] },
        { label: t('pages.prelim.files.others'), files: doc.others },
      ]}
      history={{ kind: 'prelim', entries: doc.history }}
    />
  );
}
