/** The slider captcha's server calls and the login-with-captcha sequence (docs/rules/identity.md, "Sign-in"). */
import type { CaptchaTrack } from '@contest/shared';
import { api } from './api';

/** GET /captcha; the slider component takes it as is. */
export interface CaptchaChallenge {
  nonceStr: string;
  canvasSrc: string;
  blockSrc: string;
  blockY: number;
}

/** What a login call sends after a passed slider. */
export interface CaptchaProof {
  imageKey: string;
  slidingDistance: number;
}

export async function fetchCaptcha(): Promise<CaptchaChallenge> {
  return (await api.get<CaptchaChallenge>('/captcha')).data;
}

/**
 * POST /captcha/check with the track that brought the handle there (docs/rules/identity.md, "Slider captcha"): the server
 * refuses a right distance that no person's drag or key presses produced.
 */
export async function checkCaptcha(nonceStr: string, slidingDistance: number, track: CaptchaTrack): Promise<boolean> {
  // Silent: a refused check is shown by the slider itself, which then loads a new puzzle.
  const res = await api.post<{ pass: boolean }>('/captcha/check', { imageKey: nonceStr, slidingDistance, track }, { silent: true });
  return res.data.pass === true;
}

/**
 * Runs a login call with the slider in front (desktop) or not (mobile), and once more with
 * the slider whenever the server answers captchaRequired. Resolves null if the user closed
 * the first slider; a slider closed on a retry rethrows the server's answer so the form can
 * show why the login did not go through.
 */
export async function withCaptcha<T>(options: {
  call(proof: CaptchaProof | undefined): Promise<T>;
  requestCaptcha(): Promise<CaptchaProof | null>;
  mobile: boolean;
  isCaptchaRequired(err: unknown): boolean;
}): Promise<T | null> {
  let proof: CaptchaProof | undefined;
  if (!options.mobile) {
    const first = await options.requestCaptcha();
    if (!first) return null;
    proof = first;
  }
  for (;;) {
    try {
      return await options.call(proof);
    } catch (err) {
      if (!options.isCaptchaRequired(err)) throw err;
      const next = await options.requestCaptcha();
      if (!next) throw err;
      proof = next;
    }
  }
}

/**
 * Which login a one-time code is for (docs/security.md, "Captcha code alternative"): the realm
 * of the form and the name typed into it; a participant on the SMS tab names the account by phone.
 */
export interface CaptchaCodeTarget {
  realm: 'USER' | 'ADMIN' | 'EXPERT';
  account: string;
  isPhoneLogin?: boolean;
}

/**
 * POST /captcha/code/send: a code to the account's phone or e-mail. The answer is the same
 * whether or not the account exists, so it says "sent" either way.
 */
export async function sendCaptchaCode(target: CaptchaCodeTarget): Promise<{ resendAfterSeconds: number }> {
  return (await api.post<{ resendAfterSeconds: number }>('/captcha/code/send', target, { silent: true })).data;
}

/**
 * POST /captcha/code/check on a fresh challenge (the open one may be older than the code), which
 * the right code turns into a passed nonce for this login: the login call carries it as the
 * slider's would.
 */
export async function checkCaptchaCode(target: CaptchaCodeTarget, code: string): Promise<CaptchaProof> {
  const { nonceStr } = await fetchCaptcha();
  await api.post<{ pass: boolean }>('/captcha/code/check', { ...target, imageKey: nonceStr, code }, { silent: true });
  return { imageKey: nonceStr, slidingDistance: 0 };
}
