/**
 * The arithmetic of the speed-test page (docs/decisions.md, "Speed-test page"), kept free of React and of the network so
 * it can be tested alone: speeds, how long a file takes at a speed, how to say a duration in
 * each language, and whether the materials deadline leaves room for the uploads.
 */
import { PRELIM_FILE_MAX_BYTES, type Locale, type PrelimFileKind } from '@contest/shared';

const MB = 1024 * 1024;

/** The kinds in the order of the materials form. */
export const FILE_KINDS: readonly PrelimFileKind[] = ['application', 'presentation', 'video', 'other'];

/** Bytes per second of a transfer; null when nothing moved or no time passed (no usable figure). */
export function bytesPerSecond(bytes: number, ms: number): number | null {
  if (!(bytes > 0) || !(ms > 0) || !Number.isFinite(bytes) || !Number.isFinite(ms)) return null;
  return bytes / (ms / 1000);
}

/** "0.52 MB/s", "5.3 MB/s", "48 MB/s": two significant digits below 10 MB/s, whole numbers above. */
export function formatSpeed(bytesPerSec: number): string {
  const mb = bytesPerSec / MB;
  const shown = mb >= 10 ? Math.round(mb) : Number(mb.toPrecision(2));
  return `${shown} MB/s`;
}

/** Whole seconds a file of `bytes` takes at `bytesPerSec`, rounded up (at least 1 for any file). */
export function secondsFor(bytes: number, bytesPerSec: number): number {
  if (!(bytes > 0)) return 0;
  if (!(bytesPerSec > 0)) return Number.POSITIVE_INFINITY;
  return Math.max(1, Math.ceil(bytes / bytesPerSec));
}

/**
 * A duration as people say it: seconds under a minute, then minutes (rounded up: an estimate
 * should not promise less than it takes), then hours and minutes. "6 分钟", "1 小时 5 分钟",
 * "45 seconds", "2 hours 1 minute".
 */
export function formatDuration(seconds: number, locale: Locale): string {
  const zh = locale === 'zh-cn';
  if (!Number.isFinite(seconds)) return zh ? '很长时间' : 'a very long time';
  const s = Math.max(0, Math.ceil(seconds));
  const unit = (n: number, zhUnit: string, enUnit: string) => (zh ? `${n} ${zhUnit}` : `${n} ${enUnit}${n === 1 ? '' : 's'}`);
  if (s < 60) return unit(Math.max(1, s), '秒', 'second');
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return unit(minutes, '分钟', 'minute');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const h = unit(hours, '小时', 'hour');
  return rest === 0 ? h : `${h} ${unit(rest, '分钟', 'minute')}`;
}

export interface KindEstimate {
  kind: PrelimFileKind;
  /** The largest file of this kind the server takes now. */
  maxBytes: number;
  seconds: number;
}

export interface UploadPlan {
  kinds: KindEstimate[];
  /** A full set at the ceilings, one file of each kind: the worst case the deadline check uses. */
  totalBytes: number;
  totalSeconds: number;
}

/** How long each kind takes at its ceiling, and a full set, at the measured upload speed. */
export function planUploads(limits: Partial<Record<PrelimFileKind, number>> | null | undefined, uploadBytesPerSec: number): UploadPlan {
  const kinds = FILE_KINDS.map((kind) => {
    const maxBytes = limits?.[kind] ?? PRELIM_FILE_MAX_BYTES[kind];
    return { kind, maxBytes, seconds: secondsFor(maxBytes, uploadBytesPerSec) };
  });
  const totalBytes = kinds.reduce((sum, k) => sum + k.maxBytes, 0);
  return { kinds, totalBytes, totalSeconds: secondsFor(totalBytes, uploadBytesPerSec) };
}

/** Seconds from `nowMs` to an ISO deadline; null without a deadline (an open-ended window). */
export function secondsUntil(deadline: string | null | undefined, nowMs: number): number | null {
  if (!deadline) return null;
  const at = Date.parse(deadline);
  if (Number.isNaN(at)) return null;
  return Math.floor((at - nowMs) / 1000);
}

/**
 * Whether to warn: the deadline is still ahead but nearer than twice the estimated upload time
 * (room for a retry, or for a slower hour of the day). A passed deadline is not warned about
 * here: the materials page already says submission is closed.
 */
export function deadlineIsTight(remainingSeconds: number | null, totalSeconds: number): boolean {
  if (remainingSeconds === null || remainingSeconds <= 0) return false;
  return remainingSeconds < totalSeconds * 2;
}
