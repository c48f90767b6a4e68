import { randomBytes, randomInt } from 'node:crypto';
import { CAPTCHA, type CaptchaTrack } from '@contest/shared';
import type { KvStore } from '../../lib/kv-store.js';
import { renderCaptcha, X_RANGE, Y_RANGE } from './captcha-image.js';
import { judgeTrack, type TrackRefusal } from './captcha-track.js';

/** What GET /captcha sends. The answer x stays on the server. */
export interface CaptchaChallenge {
  nonceStr: string;
  /** 320x155 PNG data URL: the background with the hole. */
  canvasSrc: string;
  /** PNG data URL of the piece, transparent around it; laid at (slidingDistance, blockY). */
  blockSrc: string;
  /** Top of the block image on the canvas, in px. */
  blockY: number;
}

/** Why a check failed; the route logs it and answers only pass: false. */
export type CaptchaRefusal = 'unknown-nonce' | 'expired' | 'wrong-distance' | TrackRefusal;

export type CaptchaVerdict = { pass: true } | { pass: false; reason: CaptchaRefusal };

export interface CaptchaService {
  issue(): Promise<CaptchaChallenge>;
  /**
   * Consumes the nonce whatever the outcome; passes when the piece is within CAPTCHA.accuracy px
   * and the track that brought it there looks like a person's (captcha-track.ts).
   */
  check(nonceStr: string, slidingDistance: number, track: CaptchaTrack | undefined): Promise<CaptchaVerdict>;
  /**
   * True once for a nonce that passed its check (the login call spends it); false otherwise.
   * A nonce passed by a code (passWithCode) is bound to the login it was asked for: it passes
   * only when `subject` is that login's subject (captchaSubject), in that realm.
   */
  consumePassed(nonceStr: string, subject?: string): Promise<boolean>;
  /** True while the challenge is open (issued, not yet checked, not expired). */
  isOpen(nonceStr: string): Promise<boolean>;
  /**
   * Closes the open challenge and marks it passed for `subject` only: what a right one-time
   * code does instead of the slider (docs/security.md, "Captcha code alternative"). False
   * when the challenge is no longer open.
   */
  passWithCode(nonceStr: string, subject: string): Promise<boolean>;
}

/**
 * Who a code-passed nonce lets in: realm, how the login names the account (a participant's
 * phone or a login name) and the name as typed. The login computes the same string from its
 * body, so a code for one account, or one realm, opens no other login.
 */
export function captchaSubject(realm: string, kind: 'phone' | 'name', identifier: string): string {
  return `${realm}:${kind}:${identifier}`;
}

/** What the passed mark holds: '1' for a slider (any login may spend it), else the bound subject. */
const SLIDER_PASS = '1';

export interface CaptchaDeps {
  kv: KvStore;
  now?: () => number;
  /** Uniform in [0, 1); drives positions and backgrounds. Tests inject a seeded one. */
  random?: () => number;
}

/** Both the open challenge and the passed mark live 2 minutes. */
export const CAPTCHA_TTL_MS = 120_000;

/** Key names in the shared kv store; exported so tests can read the answer without a back door. */
export const captchaKeys = {
  answer: (nonce: string) => `captcha:answer:${nonce}`,
  passed: (nonce: string) => `captcha:passed:${nonce}`,
};

interface StoredAnswer {
  x: number;
  issuedAt: number;
}

/** The answer must be unguessable, so the default comes from the CSPRNG rather than Math.random. */
const secureRandom = () => randomInt(0, 2 ** 48 - 1) / 2 ** 48;

function toDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

export function createCaptchaService(deps: CaptchaDeps): CaptchaService {
  const { kv } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? secureRandom;
  const within = (range: { min: number; max: number }) => range.min + Math.floor(random() * (range.max - range.min + 1));

  return {
    async issue() {
      const x = within(X_RANGE);
      const y = within(Y_RANGE);
      const seed = Math.floor(random() * 2 ** 32);
      const images = await renderCaptcha(seed, x, y);
      const nonceStr = randomBytes(16).toString('hex');
      const stored: StoredAnswer = { x, issuedAt: now() };
      await kv.set(captchaKeys.answer(nonceStr), JSON.stringify(stored), CAPTCHA_TTL_MS);
      return { nonceStr, canvasSrc: toDataUrl(images.canvasPng), blockSrc: toDataUrl(images.blockPng), blockY: y };
    },

    async check(nonceStr, slidingDistance, track) {
      const refuse = (reason: CaptchaRefusal): CaptchaVerdict => ({ pass: false, reason });
      if (!nonceStr) return refuse('unknown-nonce');
      // take() so that one answer gets one try: a bot cannot sweep distances over a nonce.
      const raw = await kv.take(captchaKeys.answer(nonceStr));
      if (raw === null) return refuse('unknown-nonce');
      let stored: StoredAnswer;
      try {
        stored = JSON.parse(raw) as StoredAnswer;
      } catch {
        return refuse('unknown-nonce');
      }
      const sinceIssue = now() - stored.issuedAt;
      // The store's TTL is the main guard; this one also holds if a store rounds TTLs up.
      if (sinceIssue >= CAPTCHA_TTL_MS) return refuse('expired');
      if (!Number.isFinite(slidingDistance) || Math.abs(slidingDistance - stored.x) > CAPTCHA.accuracy) return refuse('wrong-distance');
      // The right distance is not enough: a script that found the hole still has to drag like a person.
      const trackRefusal = judgeTrack(track, slidingDistance, sinceIssue);
      if (trackRefusal) return refuse(trackRefusal);
      await kv.set(captchaKeys.passed(nonceStr), SLIDER_PASS, CAPTCHA_TTL_MS);
      return { pass: true };
    },

    async consumePassed(nonceStr, subject) {
      if (!nonceStr) return false;
      // Taken whatever it holds: a mark tried by the wrong login is spent like a failed check.
      const mark = await kv.take(captchaKeys.passed(nonceStr));
      if (mark === null) return false;
      if (mark === SLIDER_PASS) return true;
      return subject !== undefined && mark === `code:${subject}`;
    },

    async isOpen(nonceStr) {
      if (!nonceStr) return false;
      return (await kv.get(captchaKeys.answer(nonceStr))) !== null;
    },

    async passWithCode(nonceStr, subject) {
      if (!nonceStr) return false;
      // take(): the slider can no longer be tried on this nonce, and of two callers one wins.
      const raw = await kv.take(captchaKeys.answer(nonceStr));
      if (raw === null) return false;
      await kv.set(captchaKeys.passed(nonceStr), `code:${subject}`, CAPTCHA_TTL_MS);
      return true;
    },
  };
}
