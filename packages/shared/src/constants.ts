/** Business constants (docs/rules/screens.md and the other rules pages); every screen and the server read them from here. */

export const API_BASE = '/api';

export const CONTEST_NAME_DEFAULT = '2025全国智慧医保大赛';
/** The contest name on English pages until 大赛设置 gives another (docs/decisions.md, "English"). */
export const CONTEST_NAME_EN_DEFAULT = '2025 National Smart Medical-Insurance Competition';

/** Chunked upload: 5 MB pieces, up to 5 pieces of one file in flight, 2 files uploading at once. */
export const UPLOAD_PIECE_SIZE = 5_242_880;
export const UPLOAD_PIECES_IN_FLIGHT = 5;
export const UPLOAD_CONCURRENT_FILES = 2;

export const CAPTCHA = {
  canvasWidth: 320,
  canvasHeight: 155,
  blockSize: 42,
  blockRadius: 10,
  accuracy: 3,
  dragLimitMs: 10_000,
} as const;

/** Toasts stay 3 s, or 5 s when the message is longer than 25 characters. */
export const TOAST_MS = 3000;
export const TOAST_LONG_MS = 5000;
export const TOAST_LONG_THRESHOLD = 25;

export const SMS = {
  codeLength: 6,
  validMs: 10 * 60 * 1000,
  resendWaitMs: 60 * 1000,
  maxWrongTries: 5,
} as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 16;
export const PHONE_LENGTH = 11;

export const PAGE_SIZE_DEFAULT = 10;
export const OPEN_TAB_LIMIT = 10;

export const ADMIN_WATERMARK = {
  width: 300,
  height: 240,
  opacity: 0.1,
  rotate: -30,
  fontSize: 28,
} as const;

export const PREVIEW_WATERMARK = { fontSize: 16, zIndex: 2044 } as const;

export const ZOOM = { min: 0.1, max: 5, wheelDivisor: 1200 } as const;

export const UPLOAD_LIST = { rowHeight: 54, height: 257 } as const;

export const DRAWER_WIDTH = 1002;
export const SKELETON_ROWS = 6;
export const STICKY_THRESHOLD_PX = 60;

export const DATE_FORMATS = {
  month: 'YYYY-MM',
  date: 'YYYY-MM-DD',
  datetime: 'YYYY-MM-DD HH:mm:ss',
} as const;
