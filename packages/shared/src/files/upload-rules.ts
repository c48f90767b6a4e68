// Per-origin upload rules (extensions, sizes, content families) used by the server and the uploader.
import { UPLOAD_PIECE_SIZE } from '../constants.js';
import type { AttachmentOrigin } from '../enums.js';
import { hasForbiddenText } from '../text-rules.js';

/** The spec's piece upload defaults the origin to OTHER. */
export const DEFAULT_ATTACHMENT_ORIGIN: AttachmentOrigin = 'OTHER';

/**
 * What a file really is, judged by its first bytes. Office formats share a container: docx, xlsx
 * and pptx are zip archives, doc, xls and ppt are OLE compound files.
 */
export type ContentFamily = 'pdf' | 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | 'zip' | 'ole' | 'mp4' | 'rar' | '7z';

/** Every extension the portal accepts anywhere, with the family its content must belong to and the type it is served as. */
export const EXTENSION_TYPES = {
  pdf: { family: 'pdf', mime: 'application/pdf' },
  jpg: { family: 'jpeg', mime: 'image/jpeg' },
  jpeg: { family: 'jpeg', mime: 'image/jpeg' },
  png: { family: 'png', mime: 'image/png' },
  gif: { family: 'gif', mime: 'image/gif' },
  webp: { family: 'webp', mime: 'image/webp' },
  bmp: { family: 'bmp', mime: 'image/bmp' },
  doc: { family: 'ole', mime: 'application/msword' },
  xls: { family: 'ole', mime: 'application/vnd.ms-excel' },
  ppt: { family: 'ole', mime: 'application/vnd.ms-powerpoint' },
  docx: { family: 'zip', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { family: 'zip', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { family: 'zip', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  zip: { family: 'zip', mime: 'application/zip' },
  rar: { family: 'rar', mime: 'application/vnd.rar' },
  '7z': { family: '7z', mime: 'application/x-7z-compressed' },
  mp4: { family: 'mp4', mime: 'video/mp4' },
} as const satisfies Record<string, { family: ContentFamily; mime: string }>;
export type UploadExtension = keyof typeof EXTENSION_TYPES;

export interface UploadRule {
  /** Lower-case extensions without the dot. */
  extensions: readonly UploadExtension[];
  /** Largest file in bytes. */
  maxBytes: number;
  /** Which realm uploads this origin; admins also need `button`. */
  uploader: 'USER' | 'ADMIN';
  button?: string;
  /** Stored readable by anyone (news images, public documents). */
  isPublic: boolean;
}

const MB = 1024 * 1024;
const OFFICE = ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx'] as const;
const IMAGES = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp'] as const;

/**
 * Server-side ceilings per origin (docs/files.md, "Who may upload which origin"): pages may accept less. SVG is
 * never accepted: it is a script-capable document, not a picture, and its content cannot be sniffed.
 */
export const UPLOAD_RULES: Record<AttachmentOrigin, UploadRule> = {
  // Sign-up: organisation certificate, commitment and recommendation letters.
  TEAM: { extensions: ['pdf', 'jpg', 'jpeg', 'png'], maxBytes: 20 * MB, uploader: 'USER', isPublic: false },
  // Preliminary materials: application PDF, presentation, demo video, other attachments.
  PRELIM: {
    extensions: ['pdf', ...OFFICE, 'jpg', 'jpeg', 'png', 'mp4', 'zip', 'rar', '7z'],
    maxBytes: 500 * MB,
    uploader: 'USER',
    isPublic: false,
  },
  FEEDBACK: { extensions: ['jpg', 'jpeg', 'png', 'pdf'], maxBytes: 10 * MB, uploader: 'USER', isPublic: false },
  OTHER: { extensions: ['pdf', ...OFFICE, 'jpg', 'jpeg', 'png', 'zip'], maxBytes: 50 * MB, uploader: 'USER', isPublic: false },
  // Cover and body images of news articles, and files linked from them.
  NEWS: { extensions: [...IMAGES, 'pdf', ...OFFICE, 'zip'], maxBytes: 20 * MB, uploader: 'ADMIN', button: 'news:edit', isPublic: true },
  // Templates, guides and data documents.
  DOC: { extensions: ['pdf', ...OFFICE, 'zip', 'rar', '7z', 'jpg', 'jpeg', 'png'], maxBytes: 200 * MB, uploader: 'ADMIN', button: 'doc:edit', isPublic: false },
  // Backgrounds of certificate templates (docs/certificates.md): drawn under the fields of every PDF.
  CERT: { extensions: ['png', 'jpg', 'jpeg'], maxBytes: 10 * MB, uploader: 'ADMIN', button: 'certificate:manage', isPublic: false },
};

/** `/attachment/upload/public` takes one request; anything larger goes in pieces. */
export const SINGLE_UPLOAD_MAX_BYTES = 20 * MB;
/** Longest file name kept, in characters (code points). */
export const FILE_NAME_MAX = 200;
/** Client-chosen upload ids: a UUID or similar random token, never derived from the file. */
export const UPLOAD_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** Texts of upload refusals; the first three are the spec's (section 8). */
export const UPLOAD_MSG = {
  unsupportedType: '不支持的文件上传类型',
  tooLarge: '大小超限',
  countExceeded: '数量超限',
  empty: '文件为空，请重新选择',
  contentMismatch: '文件内容与扩展名不符',
  badName: '文件名不合法',
  nameTooLong: `文件名不能超过${FILE_NAME_MAX}个字符`,
  badUploadId: '上传标识不合法',
  foreignUploadId: '上传标识已被其他账号使用，请重新上传',
  badChunk: '分片序号不合法',
  chunkMismatch: '分片信息与本次上传不一致',
  badPieceSize: '分片大小不正确',
  /** A raw piece body (application/octet-stream) sent without Content-Length: its size must be known before it is written. */
  pieceLengthRequired: '分片须声明 Content-Length',
  missingFile: '缺少上传文件',
  originNotAllowed: '无权上传该类型的附件',
  badOrigin: '附件来源不合法',
  uploadFailed: '上传失败!',
  /** A join cut off by a crash that cannot be finished from what is left: the client starts over. */
  uploadInterrupted: '上传中断，请重新上传该文件',
  linkExpired: '文件链接已失效，请刷新后重试',
  badRange: '请求的文件范围无效',
  /** 429 to a piece while the server takes as many as it can; the uploader waits and sends it again, showing nothing. */
  busy: '上传人数较多，请稍候，将自动继续上传',
  /** Direct upload (docs/files.md, "Direct upload") asked of a portal whose store is the local disk: the client uses pieces. */
  directUnavailable: '当前存储不支持直传，请使用分片上传',
  /** Completion found parts still missing in the store: the client sends them and completes again. */
  partsMissing: '文件尚未上传完整，请继续上传',
  /** A part's checksum in the store is not the one its link was signed for. */
  partChecksum: '分片校验失败，请重新上传该文件',
} as const;

/**
 * `data.reason` of a piece answer refusing an upload the server has dropped (its join was cut
 * off and cannot be finished): the client must send the whole file again under a new upload id.
 */
export const UPLOAD_RESTART_REASON = 'UPLOAD_RESTART';

/** `data.reason` of an expert's refused download (403): downloads off, or not for this kind. */
export const EXPERT_DOWNLOAD_REASONS = { off: 'EXPERT_DOWNLOAD_OFF', kind: 'EXPERT_DOWNLOAD_KIND' } as const;

/**
 * Refusals of an expert's file reads (docs/security.md, "Blind review"); apart from UPLOAD_MSG so
 * the pages that upload do not carry them.
 */
export const EXPERT_FILE_MSG = {
  /** An expert asked for a download while 专家下载材料 is off: preview only. */
  downloadOff: '评审材料仅供在线预览，不提供下载',
  /** 专家下载材料 allows PDFs only. */
  downloadKind: '该类型的评审材料不提供下载，请在线预览',
  /** The blind copy (metadata stripped) could not be made: the original is never sent instead. */
  blindCopyFailed: '该文件无法生成盲评副本，请联系大赛管理员',
} as const;

/**
 * The lower-case extension of a file name, '' when there is none. Unlike the preview helper it
 * keeps '?' and '#', which are ordinary characters in a file name, not a URL's query.
 */
export function extensionOfName(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return '';
  return name.slice(dot + 1).toLowerCase();
}

// Every control character (tab and line breaks too) and path separators; the rest of the
// request-text rule (text-rules.ts: bidi overrides that make "exe.pdf" read as "fdp.exe", zero-width...) as well.
const FORBIDDEN_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f/\\]/;

/** null when the name may be kept as the file's display name, else the refusal text. */
export function fileNameProblem(name: string): string | null {
  if ([...name].length > FILE_NAME_MAX) return UPLOAD_MSG.nameTooLong;
  const trimmed = name.trim();
  if (trimmed === '' || trimmed === '.' || trimmed === '..') return UPLOAD_MSG.badName;
  if (FORBIDDEN_NAME_CHARS.test(name) || hasForbiddenText(name)) return UPLOAD_MSG.badName;
  return null;
}

/** null when `origin` accepts a file of this name and size, else the refusal text. */
export function uploadProblem(origin: AttachmentOrigin, name: string, size: number): string | null {
  const ext = extensionOfName(name);
  if (!(UPLOAD_RULES[origin].extensions as readonly string[]).includes(ext)) return UPLOAD_MSG.unsupportedType;
  if (size > UPLOAD_RULES[origin].maxBytes) return UPLOAD_MSG.tooLarge;
  if (size <= 0) return UPLOAD_MSG.empty;
  return null;
}

/** The uploader's `accept` list for an origin: ".pdf,.jpg,...". */
export function acceptOf(origin: AttachmentOrigin): string {
  return UPLOAD_RULES[origin].extensions.map((e) => `.${e}`).join(',');
}

/** Number of 5 MB pieces for a file of `size` bytes (at least one). */
export function pieceCountOf(size: number): number {
  return Math.max(1, Math.ceil(size / UPLOAD_PIECE_SIZE));
}

/** Bytes to read from a file's start for `sniffContentFamily`. */
export const SNIFF_BYTES = 1024;

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) =>
  head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The family of a file's content from its first bytes, or null when it is none the portal accepts. */
export function sniffContentFamily(head: Uint8Array): ContentFamily | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(head, ascii('BM')) && head.length >= 14) return 'bmp';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(head, ascii('ftyp'), 4)) return 'mp4';
  if (startsWith(head, ascii('Rar!\x1a\x07'))) return 'rar';
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z';
  // PDF readers accept the header anywhere in the first 1024 bytes.
  const pdf = ascii('%PDF-');
  for (let i = 0; i + pdf.length <= Math.min(head.length, SNIFF_BYTES); i++) {
    if (startsWith(head, pdf, i)) return 'pdf';
  }
  return null;
}

/** True when the content's first bytes match what the extension promises. */
export function contentMatchesExtension(ext: string, head: Uint8Array): boolean {
  const expected = (EXTENSION_TYPES as Record<string, { family: ContentFamily }>)[ext]?.family;
  return expected !== undefined && sniffContentFamily(head) === expected;
}

export function mimeOfExtension(ext: string): string {
  return (EXTENSION_TYPES as Record<string, { mime: string }>)[ext]?.mime ?? 'application/octet-stream';
}

/** A stored file as upload calls answer it. `filePath` is the download link (`/api/attachment/stream/<uniqueNo>`). */
export interface UploadedFile {
  uniqueNo: string;
  name: string;
  extension: string;
  size: number;
  mimeType: string;
  isPublic: boolean;
  filePath: string;
}

/**
 * Answer of `POST /attachment/piece/upload` and `GET /attachment/piece/status`: the pieces the
 * server holds (0-based chunk numbers) and, once every piece is in, the stored file.
 */
export type PieceUploadAnswer =
  | { complete: false; id: string; chunks: number; received: number[]; filePath: null }
  | ({ complete: true; id: string; chunks: number; received: number[] } & UploadedFile);

/** Answer of `GET /attachment/accessUrl`: a link usable without the Authorization header, until `expiresAt` (ms). */
export interface FileAccessUrl {
  url: string;
  expiresAt: number;
  uniqueNo: string;
  name: string;
  size: number;
  mimeType: string;
}
