import { z } from 'zod';
import { VALIDATION_MSG as V } from '../messages.js';
import { emailSchema, phoneSchema } from '../schemas/auth.js';
import { CONTEST_MSG as M } from './messages.js';

/**
 * Building blocks of the contest forms. Empty form controls arrive as '', null or not at all;
 * every field normalises them ('' for text, null for a file), so the server stores one shape.
 */
const blankToEmpty = (v: unknown) => (v === null || v === undefined ? '' : v);
const blankToNull = (v: unknown) => (v === undefined || v === '' ? null : v);

/** Lenient (draft): any text up to `max`, trimmed; '' when missing. */
export const draftText = (max: number, tooLong: string) => z.preprocess(blankToEmpty, z.string().trim().max(max, tooLong));

/** Strict (submit): present after trimming, at most `max`. */
export const requiredText = (required: string, max: number, tooLong: string) =>
  z.preprocess(blankToEmpty, z.string({ error: required }).trim().min(1, required).max(max, tooLong));

/** A dictionary code: the server checks it against the enabled items of its type. */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;
export const draftCode = (invalid: string) => z.preprocess(blankToEmpty, z.string({ error: invalid }).trim().refine((v) => v === '' || CODE_PATTERN.test(v), invalid));
export const requiredCode = (required: string, invalid: string) =>
  z.preprocess(blankToEmpty, z.string({ error: invalid }).trim().min(1, required).regex(CODE_PATTERN, invalid));

/** Phone and e-mail with the spec's messages; '' allowed where optional. */
export const optionalPhone = z.preprocess(blankToEmpty, z.union([z.literal(''), phoneSchema], { error: V.phoneFormat }));
export const optionalEmail = z.preprocess(blankToEmpty, z.union([z.literal(''), emailSchema], { error: V.emailFormat }));
export const requiredPhone = z.preprocess(blankToEmpty, phoneSchema);
export const requiredEmail = z.preprocess(blankToEmpty, emailSchema);

/** An attachment as the forms send it: the `uniqueNo` of a file the participant uploaded; null when none. */
export const UNIQUE_NO_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const fileRef = z.preprocess(blankToNull, z.string({ error: M.attachmentInvalid }).regex(UNIQUE_NO_PATTERN, M.attachmentInvalid).nullable());
export const requiredFileRef = (required: string) =>
  z.preprocess(blankToNull, z.string({ error: required }).regex(UNIQUE_NO_PATTERN, M.attachmentInvalid));

/** Length in characters as people count them (code points, so an emoji is one). */
export const charLength = (s: string) => [...s].length;
