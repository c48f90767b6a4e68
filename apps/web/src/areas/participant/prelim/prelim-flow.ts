import type { PrelimDetail, PrelimFormInput } from '@contest/shared';
import type { SubmissionFlow } from '../components/submission-flow';
import { CONTEST_QUERY_KEYS, fetchMyPrelim, savePrelimDraft, submitPrelim } from '../team/contest-api';
import { MATERIAL_DETAIL_PATH } from './prelim-loader';

/** The preliminary materials (docs/rules/prelim.md) for the shared form and detail frames. */
export const PRELIM_FLOW: SubmissionFlow<PrelimFormInput, PrelimDetail> = {
  kind: 'prelim',
  testIds: { page: 'materials-page', form: 'materials-form', detail: 'materials-detail', edit: 'edit-materials' },
  paths: { form: '/material-submission', detail: MATERIAL_DETAIL_PATH },
  keys: { record: CONTEST_QUERY_KEYS.prelim, brief: CONTEST_QUERY_KEYS.prelimBrief },
  api: { fetch: fetchMyPrelim, saveDraft: savePrelimDraft, submit: submitPrelim },
  words: { formTitle: 'materials.formTitle', detailTitle: 'materials.detailTitle', confirmSubmit: 'materials.confirmSubmit', closed: 'materials.submissionClosed' },
};
