// Direct upload to the object store (docs/files.md, "Direct upload"): the calls' schemas and answers.
import { z } from 'zod';
import { UPLOAD_PIECE_SIZE } from '../constants.js';
import { ATTACHMENT_ORIGINS } from '../enums.js';
import { DEFAULT_ATTACHMENT_ORIGIN, UPLOAD_MSG } from './upload-rules.js';

/** Every part but the last is exactly this long (S3's smallest part; the same as a piece). */
export const DIRECT_PART_SIZE = UPLOAD_PIECE_SIZE;
/** Part links asked for in one call. */
export const DIRECT_SIGN_MAX = 100;

/** `data.reason` of direct-upload refusals the client acts on. */
export const DIRECT_UPLOAD_REASONS = {
  /** The store is the local disk: send pieces (`/attachment/piece/upload`) instead. */
  unavailable: 'DIRECT_UPLOAD_UNAVAILABLE',
  /** Completion found parts missing (`data.received` lists those in the store): send the rest, complete again. */
  partsMissing: 'PARTS_MISSING',
} as const;

const hex64 = z.string().regex(/^[0-9a-fA-F]{64}$/, UPLOAD_MSG.uploadFailed);
/** A part's SHA-256 as S3 takes it (x-amz-checksum-sha256): base64 of the 32 bytes. */
const base64Sha256 = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, UPLOAD_MSG.partChecksum);

export const directStartSchema = z.object({
  origin: z.enum(ATTACHMENT_ORIGINS, { error: UPLOAD_MSG.badOrigin }).default(DEFAULT_ATTACHMENT_ORIGIN),
  name: z.string({ error: UPLOAD_MSG.badName }).max(1000, UPLOAD_MSG.nameTooLong),
  /** The file's size in bytes; its parts are DIRECT_PART_SIZE long, the last one the rest. */
  size: z.number({ error: UPLOAD_MSG.tooLarge }).int(UPLOAD_MSG.tooLarge).min(0, UPLOAD_MSG.empty).max(Number.MAX_SAFE_INTEGER, UPLOAD_MSG.tooLarge),
  /** Hex SHA-256 of the whole file (the attachment's ETag). */
  sha256: hex64,
});
export type DirectStartInput = z.infer<typeof directStartSchema>;

export const directSignSchema = z.object({
  /** 0-based chunk numbers (part number = chunk + 1) with each part's SHA-256, signed into its link. */
  parts: z
    .array(z.object({ chunk: z.number({ error: UPLOAD_MSG.badChunk }).int(UPLOAD_MSG.badChunk).min(0, UPLOAD_MSG.badChunk), sha256: base64Sha256 }))
    .min(1, UPLOAD_MSG.badChunk)
    .max(DIRECT_SIGN_MAX, UPLOAD_MSG.badChunk),
});
export type DirectSignInput = z.infer<typeof directSignSchema>;

export const directUploadIdSchema = z.object({ id: z.uuid({ error: UPLOAD_MSG.badUploadId }) });

/** One signed part link: PUT the part's bytes to `url` with exactly `headers`, before `expiresAt` (ms). */
export interface DirectPartLink {
  chunk: number;
  url: string;
  headers: Record<string, string>;
  expiresAt: number;
}

export interface DirectSignAnswer {
  parts: DirectPartLink[];
}
