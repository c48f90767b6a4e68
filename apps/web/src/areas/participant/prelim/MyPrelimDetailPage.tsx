/** 材料详情 (/material-submission/detail): the preliminary materials, status, files and history. */
import { Alert, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TEAM_DICT_TYPES, type DictLabels, type PrelimDetail } from '@contest/shared';
import { AttachmentList, labelOf, useDictLabels } from '../../../components/contest';
import { EMPTY, SubmissionDetail, dateTimeText } from '../components/SubmissionDetail';
import { GoElsewhere, SubmissionLoad } from '../components/SubmissionLoad';
import { PRELIM_FLOW } from './prelim-flow';
import { prelimFormAllowed } from './prelim-loader';
import { ResultCards, useFinalResultOut } from '../results/ResultCards';
import { MyCertificates } from '../results/MyCertificates';
import { HiddenPageHeading } from '../../../components/a11y/PageHeading';
import '../team/team.css';

const LABEL_TYPES = [TEAM_DICT_TYPES.track];

export function MyPrelimDetailPage() {
  const { t } = useTranslation('signup');
  const labels = useDictLabels(LABEL_TYPES);
  return (
    <>
      <HiddenPageHeading />
      <SubmissionLoad flow={PRELIM_FLOW}>
        {(doc) =>
          !doc || doc.status === 'NOT_FILLED' ? (
            <GoElsewhere title={t('materials.noMaterials')} label={t('materials.goSubmit')} to="/material-submission" testId="materials-detail-empty" />
          ) : (
            <PrelimView doc={doc} labels={labels.data} />
          )
        }
      </SubmissionLoad>
    </>
  );
}

function PrelimView({ doc, labels }: { doc: PrelimDetail; labels: DictLabels | undefined }) {
  const { t } = useTranslation('signup');
  // The banner follows the stage: once the final's result is out, the result card says it all.
  const finalOut = useFinalResultOut();
  // No count without a file: the list already says 未上传, a "--" beside it would read 未上传--.
  const chars =
    doc.applicationChars === null
      ? null
      : doc.maxApplicationChars !== null
        ? t('materials.charsLimit', { count: doc.applicationChars, max: doc.maxApplicationChars })
        : t('materials.chars', { count: doc.applicationChars });

  return (
    <SubmissionDetail
      flow={PRELIM_FLOW}
      record={doc}
      name={doc.projectName}
      formAllowed={prelimFormAllowed(doc.status)}
      notices={
        <>
          {doc.inFinal && finalOut === false && (
            <Alert className="contest-page__alert" type="success" showIcon title={t('materials.inFinalTitle')} description={t('materials.inFinalText')} data-testid="in-final" />
          )}

          {/* 评审结果 of each published round (docs/rules/results.md), with the team's appeal. */}
          <ResultCards />
          {/* 我的证书 (docs/certificates.md): once a result is published or a document issued. */}
          <MyCertificates />
        </>
      }
    >
      <Card size="small" className="contest-card" title={t('materials.sections.project')}>
        <Descriptions column={{ xs: 1, sm: 1, md: 2 }} size="small">
          <Descriptions.Item label={t('materials.fields.projectName')}>{doc.projectName || EMPTY}</Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.track')}>{labelOf(labels, TEAM_DICT_TYPES.track, doc.track)}</Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.teamName')}>{doc.teamName || EMPTY}</Descriptions.Item>
          <Descriptions.Item label={t('common.submittedAt')}>
            {dateTimeText(doc.submittedAt)}
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.keywords')} span={2}>
            {doc.keywords.length > 0 ? (
              <Space size={[4, 4]} wrap>
                {doc.keywords.map((k) => (
                  <Tag key={k}>{k}</Tag>
                ))}
              </Space>
            ) : (
              EMPTY
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.summary')} span={2}>
            <span className="contest-history__reason">{doc.summary || EMPTY}</span>
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card size="small" className="contest-card" title={t('materials.sections.files')}>
        <Descriptions column={1} size="small" layout="vertical">
          <Descriptions.Item label={t('materials.fields.application')}>
            <div>
              <AttachmentList files={[doc.application]} />
              {chars && (
                <Typography.Text type="secondary" data-testid="application-chars">
                  {chars}
                </Typography.Text>
              )}
            </div>
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.presentation')}>
            <AttachmentList files={[doc.presentation]} />
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.video')}>
            <AttachmentList files={[doc.video]} />
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.others')}>
            <AttachmentList files={doc.others} />
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </SubmissionDetail>
  );
}
