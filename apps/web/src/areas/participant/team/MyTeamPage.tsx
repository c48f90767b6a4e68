/**
 * 参赛报名 (/my-sign, docs/rules/team.md): the team sign-up form. Drafts may be incomplete; submit
 * needs every required field. Both run the server's own schemas (contest-rules.ts), so the
 * form and the server refuse with the same message.
 */
import { Button, Card, Col, Form, Input, Row, Select, Typography } from 'antd';
import { DeleteOutlined, DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useLoaderData } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  CONTEST_MSG,
  ENTERPRISE_ORG_TYPE,
  TEAM_DICT_TYPES,
  TEAM_FILE_EXTENSIONS,
  TEAM_MEMBERS_MAX,
  TEAM_MEMBERS_MIN,
  UPLOAD_RULES,
  teamDraftSchema,
  teamEditable,
  teamSubmitSchema,
  toBeijingWallClock,
  type DictOptions,
  type TeamAdvisor,
  type TeamBrief,
  type TeamDetail,
  type TeamFileKind,
  type TeamFormInput,
  type TeamLeader,
  type TeamMember,
} from '@contest/shared';
import { MultiUpload, type UploadValueItem } from '../../../components/upload';
import { DICT_QUERY_KEYS, fetchDictModule, fileRefOf, toUploadValue } from '../../../components/contest/contest-common';
import { COMMITMENT_TEMPLATE_CODE, CONTEST_QUERY_KEYS, fetchContestSchedule, templateUrl } from './contest-api';
import { SubmissionForm } from '../components/SubmissionForm';
import { SubmissionLoad } from '../components/SubmissionLoad';
import { useSubmissionForm } from '../components/use-submission-form';
import { MY_SIGN_DETAIL_PATH } from './team-loader';
import { TEAM_FLOW } from './team-flow';
import { HiddenPageHeading } from '../../../components/a11y/PageHeading';
import './team.css';

export { mySignLoader } from './team-loader';

export interface SignValues {
  orgName?: string;
  orgType?: string;
  creditCode?: string;
  region?: string;
  city?: string;
  track?: string;
  teamName?: string;
  leader?: Partial<TeamLeader>;
  members?: Partial<TeamMember>[];
  advisor?: Partial<TeamAdvisor>;
  certificate?: UploadValueItem[];
  commitment?: UploadValueItem[];
  recommendation?: UploadValueItem[];
}

const EMPTY_MEMBER: Partial<TeamMember> = {};

/** What PUT /team/my and POST /team/my/submit receive for the form's values. */
export function signPayload(values: SignValues): TeamFormInput {
  return {
    orgName: values.orgName ?? '',
    orgType: values.orgType ?? '',
    creditCode: values.creditCode ?? '',
    region: values.region ?? '',
    city: values.city ?? '',
    track: values.track ?? '',
    teamName: values.teamName ?? '',
    leader: { name: '', phone: '', email: '', title: '', ...values.leader },
    members: (values.members ?? []).map((m) => ({ name: '', organization: '', title: '', phone: '', email: '', role: '', ...m })),
    advisor: values.advisor ?? null,
    certificate: fileRefOf(values.certificate),
    commitment: fileRefOf(values.commitment),
    recommendation: fileRefOf(values.recommendation),
  };
}

function signValues(team: TeamDetail | null): SignValues {
  if (!team) return { members: [EMPTY_MEMBER], leader: {}, advisor: {} };
  return {
    orgName: team.orgName,
    orgType: team.orgType || undefined,
    creditCode: team.creditCode ?? '',
    region: team.region || undefined,
    city: team.city,
    track: team.track || undefined,
    teamName: team.teamName,
    leader: { ...team.leader, title: team.leader?.title || undefined },
    members: team.members.length > 0 ? team.members.map((m) => ({ ...m, title: m.title || undefined, role: m.role || undefined })) : [EMPTY_MEMBER],
    advisor: team.advisor ? { ...team.advisor, title: team.advisor.title || undefined } : {},
    certificate: toUploadValue(team.certificate),
    commitment: toUploadValue(team.commitment),
    recommendation: toUploadValue(team.recommendation),
  };
}

/**
 * Why the form is read-only outside the sign-up window: not yet open (and when it opens) or
 * over, from the phase windows of GET /contest/public; the generic words until they answer.
 */
function useClosedText(signUpOpen: boolean): string | null {
  const { t } = useTranslation('signup');
  const schedule = useQuery({ queryKey: CONTEST_QUERY_KEYS.schedule, queryFn: fetchContestSchedule, enabled: !signUpOpen, retry: false });
  if (signUpOpen) return null;
  const signUp = Array.isArray(schedule.data?.phases) ? schedule.data.phases.find((p) => p.key === 'signUp') : undefined;
  if (signUp?.state === 'NOT_STARTED' && signUp.window?.start) {
    return t('sign.signUpNotStarted', { start: toBeijingWallClock(signUp.window.start).slice(0, 16) });
  }
  if (signUp?.state === 'ENDED') return t('sign.signUpEnded');
  return null;
}

export function MyTeamPage() {
  const brief = useLoaderData() as TeamBrief | null | undefined;
  const signUpOpen = brief?.signUpOpen ?? true;
  const closedText = useClosedText(signUpOpen);
  const dict = useQuery({ queryKey: DICT_QUERY_KEYS.module('TEAM'), queryFn: () => fetchDictModule('TEAM') });
  return (
    <>
      <HiddenPageHeading />
      <SubmissionLoad flow={TEAM_FLOW}>
        {(team) =>
          // The loader redirects already; this covers a status that changed since (another tab, an audit).
          team && !teamEditable(team.status) ? (
            <Navigate to={MY_SIGN_DETAIL_PATH} replace />
          ) : (
            <SignForm team={team} options={dict.data ?? {}} signUpOpen={signUpOpen} closedText={closedText} />
          )
        }
      </SubmissionLoad>
    </>
  );
}

interface SignFormProps {
  team: TeamDetail | null;
  options: DictOptions;
  signUpOpen: boolean;
  closedText: string | null;
}

function SignForm({ team, options, signUpOpen, closedText }: SignFormProps) {
  const { t } = useTranslation('signup');
  const { form, initialValues, draft, rule } = useSubmissionForm(TEAM_FLOW, {
    record: team,
    values: signValues,
    payload: signPayload,
    schemas: { draft: teamDraftSchema, submit: teamSubmitSchema },
    // The schema checks this only once every other field is valid; the form says it at once.
    extra: (path, v, mode) =>
      path[0] === 'creditCode' && mode === 'submit' && v.orgType === ENTERPRISE_ORG_TYPE && !(v.creditCode ?? '').trim()
        ? CONTEST_MSG.creditCodeRequired
        : null,
  });

  const selectOptions = (type: string) => (options[type] ?? []).map((o) => ({ value: o.code, label: o.name }));
  const orgTypes = selectOptions(TEAM_DICT_TYPES.orgType);
  const regions = selectOptions(TEAM_DICT_TYPES.region);
  const tracks = selectOptions(TEAM_DICT_TYPES.track);
  const titles = selectOptions(TEAM_DICT_TYPES.title);
  const roles = selectOptions(TEAM_DICT_TYPES.role);
  const placeholder = t('sign.placeholders.select');

  const upload = (kind: TeamFileKind) => ({
    origin: 'TEAM' as const,
    accept: TEAM_FILE_EXTENSIONS[kind].map((ext) => `.${ext}`).join(','),
    maxSize: UPLOAD_RULES.TEAM.maxBytes,
    maxCount: 1,
  });

  return (
    <SubmissionForm flow={TEAM_FLOW} record={team} aside={team ? t('sign.draftKept') : null} form={form} initialValues={initialValues} draft={draft} open={signUpOpen} closedText={closedText}>
      <Card title={t('sign.sections.org')} size="small" className="contest-card">
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="orgName" label={t('sign.fields.orgName')} required rules={[rule('orgName')]}>
              <Input placeholder={t('sign.placeholders.orgName')} maxLength={100} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="orgType" label={t('sign.fields.orgType')} required rules={[rule('orgType')]}>
              <Select placeholder={placeholder} options={orgTypes} data-testid="org-type" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="creditCode"
              label={t('sign.fields.creditCode')}
              extra={t('sign.creditCodeHint')}
              dependencies={['orgType']}
              rules={[rule('creditCode')]}
              normalize={(v?: string) => v?.toUpperCase()}
            >
              <Input placeholder={t('sign.placeholders.creditCode')} maxLength={18} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="region" label={t('sign.fields.region')} required rules={[rule('region')]}>
              <Select placeholder={placeholder} options={regions} showSearch={{ optionFilterProp: 'label' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="city" label={t('sign.fields.city')} required rules={[rule('city')]}>
              <Input placeholder={t('sign.placeholders.city')} maxLength={50} />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('sign.sections.team')} size="small" className="contest-card">
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="track" label={t('sign.fields.track')} required rules={[rule('track')]}>
              <Select placeholder={placeholder} options={tracks} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="teamName" label={t('sign.fields.teamName')} required rules={[rule('teamName')]}>
              <Input placeholder={t('sign.placeholders.teamName')} maxLength={50} />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('sign.sections.leader')} size="small" className="contest-card">
        <Row gutter={16}>
          <Col xs={24} md={6}>
            <Form.Item name={['leader', 'name']} label={t('sign.fields.name')} required rules={[rule('leader', 'name')]}>
              <Input placeholder={t('sign.placeholders.name')} maxLength={50} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name={['leader', 'phone']} label={t('sign.fields.phone')} required rules={[rule('leader', 'phone')]}>
              <Input placeholder={t('sign.placeholders.phone')} maxLength={11} inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name={['leader', 'email']} label={t('sign.fields.email')} required rules={[rule('leader', 'email')]}>
              <Input placeholder={t('sign.placeholders.email')} maxLength={100} inputMode="email" />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name={['leader', 'title']} label={t('sign.fields.title')} required rules={[rule('leader', 'title')]}>
              <Select placeholder={placeholder} options={titles} />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Form.List name="members" rules={[rule('members')]}>
        {(fields, { add, remove }, { errors }) => (
          <Card
            title={t('sign.sections.members')}
            size="small"
            className="contest-card"
            extra={
              <Typography.Text type="secondary" data-testid="member-count">
                {t('sign.memberCount', { count: fields.length, max: TEAM_MEMBERS_MAX })}
              </Typography.Text>
            }
          >
            {fields.map((field, index) => (
              <div key={field.key} className="contest-member" data-testid="member-row">
                <div className="contest-member__head">
                  <Typography.Text strong>{t('sign.member', { index: index + 1 })}</Typography.Text>
                  <Button
                    type="text"
                    danger
                    size="small"
                    icon={<DeleteOutlined />}
                    disabled={!signUpOpen || fields.length <= TEAM_MEMBERS_MIN}
                    onClick={() => remove(field.name)}
                    data-testid="remove-member"
                  >
                    {t('sign.removeMember')}
                  </Button>
                </div>
                <Row gutter={16}>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, 'name']} label={t('sign.fields.name')} required rules={[rule('members', field.name, 'name')]}>
                      <Input placeholder={t('sign.placeholders.name')} maxLength={50} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item
                      name={[field.name, 'organization']}
                      label={t('sign.fields.organization')}
                      required
                      rules={[rule('members', field.name, 'organization')]}
                    >
                      <Input placeholder={t('sign.placeholders.organization')} maxLength={100} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, 'title']} label={t('sign.fields.title')} required rules={[rule('members', field.name, 'title')]}>
                      <Select placeholder={placeholder} options={titles} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, 'phone']} label={t('sign.fields.phone')} rules={[rule('members', field.name, 'phone')]}>
                      <Input placeholder={t('sign.placeholders.phone')} maxLength={11} inputMode="numeric" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, 'email']} label={t('sign.fields.email')} rules={[rule('members', field.name, 'email')]}>
                      <Input placeholder={t('sign.placeholders.email')} maxLength={100} inputMode="email" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, 'role']} label={t('sign.fields.role')} required rules={[rule('members', field.name, 'role')]}>
                      <Select placeholder={placeholder} options={roles} />
                    </Form.Item>
                  </Col>
                </Row>
              </div>
            ))}
            <Form.ErrorList errors={errors} />
            <Button
              type="dashed"
              block
              icon={<PlusOutlined />}
              disabled={!signUpOpen || fields.length >= TEAM_MEMBERS_MAX}
              onClick={() => add({})}
              data-testid="add-member"
            >
              {t('sign.addMember')}
            </Button>
          </Card>
        )}
      </Form.List>

      <Card title={t('sign.sections.advisor')} size="small" className="contest-card" extra={<Typography.Text type="secondary">{t('sign.advisorHint')}</Typography.Text>}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name={['advisor', 'name']} label={t('sign.fields.name')} rules={[rule('advisor', 'name')]}>
              <Input placeholder={t('sign.placeholders.name')} maxLength={50} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['advisor', 'organization']} label={t('sign.fields.organization')} rules={[rule('advisor', 'organization')]}>
              <Input placeholder={t('sign.placeholders.organization')} maxLength={100} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['advisor', 'title']} label={t('sign.fields.title')} rules={[rule('advisor', 'title')]}>
              <Select placeholder={placeholder} options={titles} allowClear />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['advisor', 'phone']} label={t('sign.fields.phone')} rules={[rule('advisor', 'phone')]}>
              <Input placeholder={t('sign.placeholders.phone')} maxLength={11} inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['advisor', 'email']} label={t('sign.fields.email')} rules={[rule('advisor', 'email')]}>
              <Input placeholder={t('sign.placeholders.email')} maxLength={100} inputMode="email" />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('sign.sections.files')} size="small" className="contest-card">
        <Form.Item name="certificate" label={t('sign.fields.certificate')} required rules={[rule('certificate')]} extra={t('sign.certificateTip')}>
          <MultiUpload {...upload('certificate')} />
        </Form.Item>
        <Form.Item
          name="commitment"
          label={t('sign.fields.commitment')}
          required
          rules={[rule('commitment')]}
          extra={
            <span className="contest-template">
              {t('sign.commitmentTip')}
              <a href={templateUrl(COMMITMENT_TEMPLATE_CODE)} download data-testid="commitment-template">
                <DownloadOutlined /> {t('sign.downloadTemplate')}
              </a>
            </span>
          }
        >
          <MultiUpload {...upload('commitment')} />
        </Form.Item>
        <Form.Item name="recommendation" label={t('sign.fields.recommendation')} rules={[rule('recommendation')]} extra={t('sign.recommendationTip')}>
          <MultiUpload {...upload('recommendation')} />
        </Form.Item>
      </Card>
    </SubmissionForm>
  );
}
