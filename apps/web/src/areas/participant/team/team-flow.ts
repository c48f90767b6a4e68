import type { TeamDetail, TeamFormInput } from '@contest/shared';
import type { SubmissionFlow } from '../components/submission-flow';
import { CONTEST_QUERY_KEYS, fetchMyTeam, saveTeamDraft, submitTeam } from './contest-api';
import { MY_SIGN_DETAIL_PATH } from './team-loader';

/** The team sign-up (docs/rules/team.md) for the shared form and detail frames. */
export const TEAM_FLOW: SubmissionFlow<TeamFormInput, TeamDetail> = {
  kind: 'team',
  testIds: { page: 'sign-page', form: 'sign-form', detail: 'sign-detail', edit: 'edit-sign' },
  paths: { form: '/my-sign', detail: MY_SIGN_DETAIL_PATH },
  keys: { record: CONTEST_QUERY_KEYS.team, brief: CONTEST_QUERY_KEYS.teamBrief },
  api: { fetch: fetchMyTeam, saveDraft: saveTeamDraft, submit: submitTeam },
  words: { formTitle: 'sign.formTitle', detailTitle: 'sign.detailTitle', confirmSubmit: 'sign.confirmSubmit', closed: 'sign.signUpClosed' },
};
