import type { ExpertDownloadMode, Realm } from '@contest/shared';
import type { AuthContext } from '../auth/session.service.js';

/** Whoever asks for a file: nobody signed in, or an account of some realm. */
export type Reader =
  | { kind: 'anonymous' }
  | ({ kind: 'account' } & Pick<AuthContext, 'accountId' | 'realm' | 'roleCode'> & {
        /** The session the request came with (bearer token, or a session-bound link): expert links are bound to it. */
        sessionId?: string;
      });

/**
 * How an expert gets a file they may read (docs/security.md, "Blind review"), from the review
 * module: the name they see (neutral under blind review), whether the copy is blind (metadata
 * stripped), the download setting, and what their watermark says.
 */
export interface ExpertFileView {
  name: string;
  blind: boolean;
  download: ExpertDownloadMode;
  /** Stamp lines for a download: expert code, masked name (the time is added when stamped). */
  watermark: string[];
}

export const ANONYMOUS: Reader = { kind: 'anonymous' };

export interface AccessRules {
  /** Admin button check (`permissions.can`). */
  adminCan(ctx: { accountId: string; realm: Realm; roleCode: AuthContext['roleCode'] }, code: string): Promise<boolean>;
  /** True when the expert reviews the project this attachment belongs to. */
  isExpertAssigned(expertId: string, attachmentId: string): Promise<boolean>;
  /** True when the participant may see a document (template, guide, data document) using this file. */
  canReadDocumentFile(accountId: string, attachmentId: string): Promise<boolean>;
  /**
   * How this expert gets this file (called only once canReadAttachment let the expert through);
   * null when the file is no project's material (then it is served as to anyone).
   */
  expertFileView(expertId: string, file: { id: string; originalName: string; extension: string }): Promise<ExpertFileView | null>;
}

/** Admin button that opens participants' attachments. */
export const FILE_READ_BUTTON = 'file:read';

/**
 * The one place deciding who may read an attachment (docs/files.md, "Reading"): anyone for public
 * content; its owner; participants a document using it is meant for (data documents for approved
 * teams); admins holding `file:read`; experts assigned to its project. Callers answer
 * everyone else 404, so a refusal never tells whether the file exists.
 */
export async function canReadAttachment(
  reader: Reader,
  file: { id: string; ownerId: string | null; isPublic: boolean },
  rules: AccessRules,
): Promise<boolean> {
  if (file.isPublic) return true;
  if (reader.kind === 'anonymous') return false;
  if (file.ownerId !== null && file.ownerId === reader.accountId) return true;
  if (reader.realm === 'ADMIN') return rules.adminCan(reader, FILE_READ_BUTTON);
  if (reader.realm === 'EXPERT') return rules.isExpertAssigned(reader.accountId, file.id);
  if (reader.realm === 'USER') return rules.canReadDocumentFile(reader.accountId, file.id);
  return false;
}
