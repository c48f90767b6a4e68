import type { TemplateEventCode } from './templates.js';

/**
 * English texts of the event notices (docs/decisions.md, "English", "System notices in 我的消息"):
 * what an account whose language is English receives when its template's English is not edited.
 * Same variables as the Chinese defaults of TEMPLATE_EVENTS; a new event must be added here too
 * (the record is typed by the event codes). An empty text means "send the Chinese".
 */
export interface EnglishTemplateTexts {
  subject: string;
  body: string;
  smsText: string;
}

const SIGN_EN = '[Smart Medical-Insurance Competition] ';
const SEE_SITE = 'Please sign in to the contest website for details.';

export const TEMPLATE_EVENTS_EN: Record<TemplateEventCode, EnglishTemplateTexts> = {
  TEAM_SUBMITTED: {
    subject: 'Sign-up submitted',
    body: 'The sign-up of your team "{teamName}" has been submitted and is awaiting review.',
    smsText: '',
  },
  TEAM_APPROVED: {
    subject: 'Sign-up approved',
    body: 'The sign-up of your team "{teamName}" has been approved. Please submit your preliminary-round materials within the submission period.',
    smsText: `${SIGN_EN}Sign-up review result for your team "{teamName}": {status}.`,
  },
  TEAM_REVISING: {
    subject: 'Sign-up needs changes',
    body: 'Sign-up review result for your team "{teamName}": {status}. Reviewer\'s comments: {reason}',
    smsText: `${SIGN_EN}Sign-up review result for your team "{teamName}": {status}. Please sign in to the contest website to read the comments.`,
  },
  TEAM_REJECTED: {
    subject: 'Sign-up not approved',
    body: 'Sign-up review result for your team "{teamName}": {status}. Reviewer\'s comments: {reason}',
    smsText: `${SIGN_EN}Sign-up review result for your team "{teamName}": {status}. Please sign in to the contest website to read the comments.`,
  },
  TEAM_DRAFT_REMIND: {
    subject: 'Please submit your sign-up',
    body: 'Your sign-up has not been submitted yet. Please complete and submit it before sign-up closes; teams that miss the deadline cannot take part.',
    smsText: `${SIGN_EN}Your sign-up has not been submitted yet. Please sign in to the contest website and submit it before sign-up closes.`,
  },
  PRELIM_SUBMITTED: {
    subject: 'Preliminary materials submitted',
    body: 'The preliminary-round materials of your project "{projectName}" have been submitted and are awaiting the formal check.',
    smsText: '',
  },
  PRELIM_APPROVED: {
    subject: 'Preliminary materials passed the formal check',
    body: 'The preliminary-round materials of your project "{projectName}" have passed the formal check and go on to the preliminary review.',
    smsText: `${SIGN_EN}Formal check of the preliminary materials of your project "{projectName}": {status}.`,
  },
  PRELIM_REVISING: {
    subject: 'Preliminary materials need changes',
    body: 'Formal check of the preliminary materials of your project "{projectName}": {status}. Reviewer\'s comments: {reason}',
    smsText: `${SIGN_EN}Formal check of the preliminary materials of your project "{projectName}": {status}. Please sign in to the contest website to read the comments.`,
  },
  PRELIM_REJECTED: {
    subject: 'Preliminary materials did not pass the formal check',
    body: 'Formal check of the preliminary materials of your project "{projectName}": {status}. Reviewer\'s comments: {reason}',
    smsText: `${SIGN_EN}Formal check of the preliminary materials of your project "{projectName}": {status}. Please sign in to the contest website to read the comments.`,
  },
  PRELIM_DRAFT_REMIND: {
    subject: 'Please submit your preliminary materials',
    body: 'Your preliminary-round materials have not been submitted yet. Please complete and submit them before the deadline; otherwise your project cannot enter the preliminary review.',
    smsText: `${SIGN_EN}Your preliminary-round materials have not been submitted yet. Please sign in to the contest website and submit them before the deadline.`,
  },
  FINAL_PROMOTED: {
    subject: 'Promoted to the final',
    body: 'Congratulations! Your project "{projectName}" has been promoted to the final. Please watch for notices about the final.',
    smsText: `${SIGN_EN}Congratulations! Your project "{projectName}" has been promoted to the final. ${SEE_SITE}`,
  },
  FEEDBACK_REPLIED: {
    subject: 'Your feedback has been answered',
    body: 'The feedback you submitted on {submittedDate} has been answered. You can read the answer under "My feedback".',
    smsText: '',
  },
  REVIEW_REMIND: {
    subject: '{round} review reminder',
    body: 'You still have projects to score in the {round} review. Please sign in to the expert review system {deadlineHint} to finish scoring.',
    smsText: `${SIGN_EN}You still have projects to score in the {round} review. Please sign in to the expert review system soon to finish scoring.`,
  },
  SCORE_RETURNED: {
    subject: 'Score returned',
    body: 'Your {round} score for project "{projectName}" has been returned. Reason: {reason}. Please score it again and submit within the review period.',
    smsText: '',
  },
  REREVIEW_INVITED: {
    subject: 'New project to re-review',
    body: 'You are invited to re-review project "{projectName}" in the {round}. Reason: {reason}. Please finish scoring within the review period.',
    smsText: '',
  },
  REVIEW_CALIBRATION_NOTE: {
    subject: '{round} scoring note',
    body: 'The organisers left you a note on your scores in the {round} review: {reason}',
    smsText: '',
  },
  RESULT_PUBLISHED: {
    subject: '{round} results published',
    body: 'The {round} results have been published and are open for public review until {periodEnd} (Beijing time). Your project "{projectName}": {result}. If you disagree, sign in to the contest website {deadlineHint} to file an appeal (one per round).',
    smsText: `${SIGN_EN}The {round} results are published. Your project "{projectName}": {result}. ${SEE_SITE}`,
  },
  APPEAL_RECEIVED: {
    subject: 'Appeal received',
    body: 'Your appeal against the {round} results (project "{projectName}") has been received. The organising committee will answer before {periodEnd} (Beijing time); please watch your messages.',
    smsText: '',
  },
  APPEAL_REJECTED: {
    subject: 'Appeal decision',
    body: 'Your appeal against the {round} results (project "{projectName}") was reviewed and not upheld. Reply: {reason}',
    smsText: `${SIGN_EN}Your appeal against the {round} results has been decided. Please sign in to the contest website to read the reply.`,
  },
  APPEAL_ACCEPTED: {
    subject: 'Appeal decision',
    body: 'Your appeal against the {round} results (project "{projectName}") has been upheld. The project will be re-reviewed, and corrected results will be published afterwards. Reply: {reason}',
    smsText: `${SIGN_EN}Your appeal against the {round} results has been upheld and the project will be re-reviewed. ${SEE_SITE}`,
  },
  RESULT_REVISED: {
    subject: '{round} results corrected',
    body: 'The {round} results have been corrected after re-review and are open for public review until {periodEnd} (Beijing time). Your project "{projectName}": {result}. Reason for the correction: {reason}',
    smsText: `${SIGN_EN}The {round} results have been corrected. Your project "{projectName}": {result}. ${SEE_SITE}`,
  },
  SCORE_ABSTAINED: {
    subject: 'An expert abstained from a project',
    body: 'Expert {name} abstained from the {round} review of project "{projectName}". Reason: {reason}. The project needs another scorer: see the suggestions in review monitoring.',
    smsText: '',
  },
  CERTIFICATES_READY: {
    subject: '{round} certificates issued',
    body: 'The {round} certificates of your team "{teamName}" (project "{projectName}") have been issued. Sign in to the contest website and open "My certificates" to view and download them. The serial number and QR code on each certificate can be verified on the website.',
    smsText: '',
  },
  SCORE_LOG_MISMATCH: {
    subject: 'Score log check found a problem',
    body: 'The daily score log check found a problem: {reason}. Please sign in to the console and check again on the "Score log" page.',
    smsText: '',
  },
  DATA_EXPORT_READY: {
    subject: 'Your personal data export is ready',
    body: 'The export of your personal data is ready. Please sign in to the contest website within 7 days and download it from the "My data" page.',
    smsText: '',
  },
  DATA_DELETE_APPROVED: {
    subject: 'Your deletion request was approved',
    body: 'Your request to delete your personal information was approved: your account and personal information will be deleted (anonymised); the contest results are kept. Reply: {reason}',
    smsText: `${SIGN_EN}Your request to delete your personal information was approved; your account and personal information will be deleted.`,
  },
  DATA_DELETE_WAITING: {
    subject: 'Your deletion request was approved and will be carried out later',
    body: 'Your request to delete your personal information was approved. {status}, so the deletion will be carried out automatically once that is over. Reply: {reason}',
    smsText: '',
  },
  DATA_DELETE_REJECTED: {
    subject: 'Your deletion request was not approved',
    body: 'Your request to delete your personal information was not approved. Reply: {reason}',
    smsText: '',
  },
};

/**
 * Variable values the services fill in Chinese from closed vocabularies (round names, audit
 * statuses, result outcomes, the usual award levels), in English. Names, reasons, reviewers'
 * comments and award levels an administrator named otherwise stay as written.
 */
const VALUE_EN: Readonly<Record<string, string>> = {
  // DATA_REQUEST_WAIT_TEXT (docs/retention.md): why an approved deletion waits.
  您的报名或初赛材料仍在审核中: 'Your sign-up or preliminary materials are still being audited',
  您的项目仍在评审中: 'Your project is still under review',
  您的项目结果仍在公示期内: 'The result of your project is still in its public notice period',
  您的申诉尚未处理完毕: 'Your appeal has not been settled yet',
  // ROUND_NAMES
  初赛: 'Preliminary Round',
  决赛: 'Final Round',
  // TEAM_STATUS_LABELS, PRELIM_DOC_STATUS_LABELS
  草稿: 'Draft',
  已提交: 'Submitted',
  审核通过: 'Approved',
  退回修改: 'Returned for changes',
  审核不通过: 'Not approved',
  未填写: 'Not filled in',
  形式审查通过: 'Passed',
  形式审查不通过: 'Did not pass',
  // RESULT_OUTCOME_NAMES and the usual award levels
  晋级决赛: 'Promoted to the final',
  未晋级决赛: 'Not promoted to the final',
  获奖: 'Awarded',
  未获奖: 'No award',
  特等奖: 'Grand prize',
  一等奖: 'First prize',
  二等奖: 'Second prize',
  三等奖: 'Third prize',
  优秀奖: 'Honourable mention',
};

const VOCABULARY_VARIABLES = new Set(['round', 'status', 'result']);
// What the services write as a deadline hint: 请在 <Beijing time>（北京时间）前, or 请尽快.
const DEADLINE_HINT = /^请在\s*(.+?)（北京时间）前$/;

/** The English of a notice's variables: known vocabularies and the deadline hint; the rest as given. */
export function englishTemplateVars(vars: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...vars };
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) continue;
    if (VOCABULARY_VARIABLES.has(name) && Object.hasOwn(VALUE_EN, value)) out[name] = VALUE_EN[value];
    if (name === 'deadlineHint') {
      const m = DEADLINE_HINT.exec(value);
      if (m) out[name] = `before ${m[1]} (Beijing time)`;
      else if (value === '请尽快') out[name] = 'as soon as possible';
    }
  }
  return out;
}
