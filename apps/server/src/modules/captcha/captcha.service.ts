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
  /** True once for a nonce that passed its check (the login call spends it); false otherwise. */
  consumePassed(nonceStr: string): Promise<boolean>;
}

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
      await kv.set(captchaKeys.passed(nonceStr), '1', CAPTCHA_TTL_MS);
      return { pass: true };
    },

    async consumePassed(nonceStr) {
      if (!nonceStr) return false;
      return (await kv.take(captchaKeys.passed(nonceStr))) !== null;
    },
  };
}
