import { z } from 'zod';
import type { IsoDateTime } from '../admin/common.js';
import type { PrelimDocStatus, TeamStatus } from '../enums.js';
import { CREDIT_CODE_LENGTH, creditCodeValid } from './credit-code.js';
import {
  draftCode,
  draftText,
  fileRef,
  optionalEmail,
  optionalPhone,
  requiredCode,
  requiredEmail,
  requiredFileRef,
  requiredPhone,
  requiredText,
} from './form-fields.js';
import { VALIDATION_MSG as V } from '../messages.js';
import { CONTEST_MSG as M } from './messages.js';

/** ORG_TYPE dictionary code for which the unified social credit code is required (docs/rules/team.md, "The form"). */
export const ENTERPRISE_ORG_TYPE = 'ENTERPRISE';
export const TEAM_MEMBERS_MIN = 1;
export const TEAM_MEMBERS_MAX = 9;

/** Dictionary types the sign-up form selects from (codes of `DICTIONARY_SEED`). */
export const TEAM_DICT_TYPES = {
  orgType: 'ORG_TYPE',
  region: 'REGION',
  track: 'TRACK',
  title: 'PROFESSIONAL_TITLE',
  role: 'MEMBER_ROLE',
} as const;

/** File kinds of the sign-up and the extensions each accepts (all uploaded with origin TEAM). */
export const TEAM_FILE_EXTENSIONS = {
  certificate: ['pdf', 'jpg', 'jpeg', 'png'],
  commitment: ['pdf'],
  recommendation: ['pdf', 'jpg', 'jpeg', 'png'],
} as const;
export type TeamFileKind = keyof typeof TEAM_FILE_EXTENSIONS;

export interface TeamLeader {
  name: string;
  phone: string;
  email: string;
  /** PROFESSIONAL_TITLE code. */
  title: string;
}
export interface TeamMember {
  name: string;
  organization: string;
  /** PROFESSIONAL_TITLE code. */
  title: string;
  phone: string;
  email: string;
  /** MEMBER_ROLE code. */
  role: string;
}
export interface TeamAdvisor {
  name: string;
  organization: string;
  title: string;
  phone: string;
  email: string;
}

// Upper-cased: the code's letters are capitals, and people type them in either case.
const creditCodeField = z.preprocess(
  (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v.trim().toUpperCase() : v),
  z
    .string({ error: M.creditCodeInvalid })
    .refine((v) => v === '' || v.length === CREDIT_CODE_LENGTH, M.creditCodeLength)
    .refine((v) => v === '' || v.length !== CREDIT_CODE_LENGTH || creditCodeValid(v), M.creditCodeInvalid),
);
const draftCreditCode = z.preprocess(
  (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v.trim().toUpperCase() : v),
  z.string({ error: M.creditCodeInvalid }).max(CREDIT_CODE_LENGTH, M.creditCodeLength),
);

const NAME_MAX = 50;
const ORG_MAX = 100;
const CONTACT_MAX = 100;

/** An advisor whose every field is empty is no advisor (the form shows the block unfilled). */
const emptyAdvisorToNull = (v: unknown) => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => x === null || x === undefined || (typeof x === 'string' && x.trim() === ''))) return null;
  return v;
};

// ---- Draft (PUT /team/my): types and lengths only; anything may still be missing.
const draftLeader = z.object({
  name: draftText(NAME_MAX, M.personNameTooLong),
  phone: draftText(20, V.phoneFormat),
  email: draftText(CONTACT_MAX, V.emailFormat),
  title: draftCode(M.titleInvalid),
});
const draftMember = z.object({
  name: draftText(NAME_MAX, M.personNameTooLong),
  organization: draftText(ORG_MAX, M.organizationTooLong),
  title: draftCode(M.titleInvalid),
  phone: draftText(20, V.phoneFormat),
  email: draftText(CONTACT_MAX, V.emailFormat),
  role: draftCode(M.memberRoleInvalid),
});
const draftAdvisor = z.object({
  name: draftText(NAME_MAX, M.personNameTooLong),
  organization: draftText(ORG_MAX, M.organizationTooLong),
  title: draftCode(M.titleInvalid),
  phone: draftText(20, V.phoneFormat),
  email: draftText(CONTACT_MAX, V.emailFormat),
});

const EMPTY_LEADER: TeamLeader = { name: '', phone: '', email: '', title: '' };

export const teamDraftSchema = z.object({
  orgName: draftText(ORG_MAX, M.orgNameTooLong),
  orgType: draftCode(M.orgTypeInvalid),
  creditCode: draftCreditCode,
  region: draftCode(M.regionInvalid),
  city: draftText(50, M.cityTooLong),
  track: draftCode(M.trackInvalid),
  teamName: draftText(NAME_MAX, M.teamNameTooLong),
  leader: z.preprocess((v) => v ?? EMPTY_LEADER, draftLeader),
  members: z.preprocess((v) => v ?? [], z.array(draftMember).max(TEAM_MEMBERS_MAX, M.membersTooMany)),
  advisor: z.preprocess(emptyAdvisorToNull, draftAdvisor.nullable()),
  certificate: fileRef,
  commitment: fileRef,
  recommendation: fileRef,
});

// ---- Submit (POST /team/my/submit): every required field, formats, member count.
const leaderSchema = z.object(
  {
  name: requiredText(M.leaderNameRequired, NAME_MAX, M.personNameTooLong),
  phone: requiredPhone,
  email: requiredEmail,
  title: requiredCode(M.leaderTitleRequired, M.titleInvalid),
  },
  { error: M.leaderRequired },
);
const memberSchema = z.object({
  name: requiredText(M.memberNameRequired, NAME_MAX, M.personNameTooLong),
  organization: requiredText(M.memberOrganizationRequired, ORG_MAX, M.organizationTooLong),
  title: requiredCode(M.memberTitleRequired, M.titleInvalid),
  phone: optionalPhone,
  email: optionalEmail,
  role: requiredCode(M.memberRoleRequired, M.memberRoleInvalid),
});
const advisorSchema = z.object({
  name: requiredText(M.advisorNameRequired, NAME_MAX, M.personNameTooLong),
  organization: draftText(ORG_MAX, M.organizationTooLong),
  title: draftCode(M.titleInvalid),
  phone: optionalPhone,
  email: optionalEmail,
});

export const teamSubmitSchema = z
  .object({
    orgName: requiredText(M.orgNameRequired, ORG_MAX, M.orgNameTooLong),
    orgType: requiredCode(M.orgTypeRequired, M.orgTypeInvalid),
    creditCode: creditCodeField,
    region: requiredCode(M.regionRequired, M.regionInvalid),
    city: requiredText(M.cityRequired, 50, M.cityTooLong),
    track: requiredCode(M.trackRequired, M.trackInvalid),
    teamName: requiredText(M.teamNameRequired, NAME_MAX, M.teamNameTooLong),
    leader: z.preprocess((v) => v ?? undefined, leaderSchema),
    members: z.preprocess(
      (v) => v ?? [],
      z.array(memberSchema, { error: M.membersRequired }).min(TEAM_MEMBERS_MIN, M.membersRequired).max(TEAM_MEMBERS_MAX, M.membersTooMany),
    ),
    advisor: z.preprocess(emptyAdvisorToNull, advisorSchema.nullable()),
    certificate: requiredFileRef(M.certificateRequired),
    commitment: requiredFileRef(M.commitmentRequired),
    recommendation: fileRef,
  })
  .superRefine((v, ctx) => {
    if (v.orgType === ENTERPRISE_ORG_TYPE && v.creditCode === '') {
      ctx.addIssue({ code: 'custom', message: M.creditCodeRequired, path: ['creditCode'] });
    }
  });

/** The sign-up form after validation (both schemas give this shape). */
export interface TeamForm {
  orgName: string;
  orgType: string;
  creditCode: string;
  region: string;
  city: string;
  track: string;
  teamName: string;
  leader: TeamLeader;
  members: TeamMember[];
  advisor: TeamAdvisor | null;
  /** uniqueNo of an attachment uploaded with origin TEAM by this participant. */
  certificate: string | null;
  commitment: string | null;
  recommendation: string | null;
}
/** What a form may send: every field optional, '' or null for empty. */
export type TeamFormInput = z.input<typeof teamDraftSchema>;

/** An attachment of a contest record as answers show it. */
export interface ContestAttachment {
  uniqueNo: string;
  name: string;
  extension: string;
  size: number;
  /** `/api/attachment/stream/<uniqueNo>` */
  filePath: string;
}

/** One status change (docs/rules/team.md, "History and notices"): who, when, from, to, why. */
export interface StatusHistoryEntry {
  id: string;
  fromStatus: PrelimDocStatus | null;
  toStatus: PrelimDocStatus;
  reason: string | null;
  actorRealm: 'USER' | 'ADMIN' | 'EXPERT';
  /** The participant's account name, or, for staff, their name (participants see 大赛组委会). */
  actorName: string;
  createdAt: IsoDateTime;
}

/** GET /team/my (null when the participant has no team yet) and the admin's team detail. */
export interface TeamDetail extends Omit<TeamForm, 'certificate' | 'commitment' | 'recommendation'> {
  id: string;
  status: TeamStatus;
  certificate: ContestAttachment | null;
  commitment: ContestAttachment | null;
  recommendation: ContestAttachment | null;
  /** Reason of the latest REVISING / REJECTED outcome. */
  auditReason: string | null;
  submittedAt: IsoDateTime | null;
  auditedAt: IsoDateTime | null;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
  /** The participant may save and submit now: status allows it (sign-up window aside). */
  editable: boolean;
  /** Oldest first. */
  history: StatusHistoryEntry[];
  /** Admin views only: the owning account. */
  owner?: { id: string; username: string; phone: string | null };
}

/** GET /team/my-brief: enough for menus, guards and the detail page header. */
export interface TeamBrief {
  teamStatus: TeamStatus | null;
  prelimDocStatus: PrelimDocStatus | null;
  teamId: string | null;
  teamName: string | null;
  orgName: string | null;
  track: string | null;
  auditReason: string | null;
  submittedAt: IsoDateTime | null;
  updatedAt: IsoDateTime | null;
  editable: boolean;
  /** The sign-up window is open now. */
  signUpOpen: boolean;
}
