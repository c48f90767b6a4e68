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
