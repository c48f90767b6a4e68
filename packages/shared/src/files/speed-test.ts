// The connection speed test (docs/decisions.md, "Speed-test page"): the download and upload probes and the page timing them.

const MB = 1024 * 1024;

/** Speed test payloads: default and ceiling, in bytes (both directions). */
export const SPEED_DEFAULT_BYTES = 5 * MB;
export const SPEED_MAX_BYTES = 20 * MB;

/** The one body type the upload probe takes: raw bytes, never a form or JSON the server would parse. */
export const SPEED_CONTENT_TYPE = 'application/octet-stream';

export const SPEED_MSG = {
  badType: `测速数据须以 ${SPEED_CONTENT_TYPE} 发送`,
  tooLarge: `测速数据不能超过 ${SPEED_MAX_BYTES / MB} MB`,
} as const;

/** What the upload probe answers: the bytes it read (and threw away). */
export interface SpeedUploadAnswer {
  received: number;
}
