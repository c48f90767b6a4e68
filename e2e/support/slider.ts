import type { Page } from 'playwright-core';
import { findGapByOutline } from './slider-solvers.js';

/**
 * Finds the gap the way a person does: by the hole's shape. The background has
 * decoy holes (one carrying the piece's own picture as bait, which the old "piece times the
 * darkening" matcher fell for) and the real hole is shaded over, so the journeys read the
 * outline instead (slider-solvers.ts, shared with bench/captcha-solver.bench.ts). No test hook
 * on the server: production builds stay exactly as shipped.
 */
export async function findGap(page: Page): Promise<number> {
  const { bg, block, top } = await page.evaluate(async () => {
    const root = document.querySelector('[data-testid="slider-captcha"]')!;
    const canvasImg = root.querySelector<HTMLImageElement>('.slider-captcha__canvas')!;
    const blockImg = root.querySelector<HTMLImageElement>('[data-testid="slider-block"]')!;
    const load = (src: string) =>
      new Promise<HTMLImageElement>((resolve, reject) => {
        const img = new Image();
        img.onload = () => resolve(img);
        img.onerror = reject;
        img.src = src;
      });
    const pixels = (img: HTMLImageElement) => {
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const { data, width, height } = ctx.getImageData(0, 0, c.width, c.height);
      return { data: Array.from(data), width, height };
    };
    return {
      bg: pixels(await load(canvasImg.src)),
      block: pixels(await load(blockImg.src)),
      top: Math.round(parseFloat(blockImg.style.top || '0')),
    };
  });
  return findGapByOutline(bg, block, top);
}

/** Drags the handle to the gap with a human-looking track (uneven steps, a little vertical wobble). */
async function dragOnce(page: Page, usedNonce: string | null): Promise<string> {
  const captcha = page.getByTestId('slider-captcha');
  await page.waitForFunction((used) => {
    const root = document.querySelector<HTMLElement>('[data-testid="slider-captcha"]');
    const img = root?.querySelector<HTMLImageElement>('.slider-captcha__canvas');
    return root?.dataset.state === 'idle' && root.dataset.nonce !== used && !!img && img.complete && img.naturalWidth > 0;
  }, usedNonce, { polling: 50 });
  const nonce = (await captcha.getAttribute('data-nonce')) ?? '';
  const gap = await findGap(page);
  const handle = page.getByTestId('slider-handle');
  // The dialog opens with a zoom animation: measuring mid-animation gives a shrunken, moving
  // target (a drag that falls short). Wait until the widget stops moving.
  await page.waitForFunction(
    () => {
      const el = document.querySelector<HTMLElement>('[data-testid="slider-captcha"] .slider-captcha__image');
      if (!el) return false;
      const r = el.getBoundingClientRect();
      const key = `${r.x},${r.y},${r.width},${r.height}`;
      const w = window as unknown as { __sliderBox?: string; __sliderSame?: number };
      w.__sliderSame = w.__sliderBox === key ? (w.__sliderSame ?? 0) + 1 : 0;
      w.__sliderBox = key;
      return w.__sliderSame >= 3;
    },
    undefined,
    { polling: 50 },
  );
  const box = (await handle.boundingBox())!;
  const stage = (await captcha.locator('.slider-captcha__image').boundingBox())!;
  const scale = stage.width / 320;
  const startX = box.x + box.width / 2;
  const startY = box.y + box.height / 2;
  const distance = gap * scale;
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  // A person's drag (the server judges the track, docs/rules/identity.md, "Slider captcha"): quick at first and slowing
  // into the hole, uneven gaps between moves, and a hand that never holds a level line.
  const steps = 16 + Math.floor(Math.random() * 6);
  let wobble = 0;
  for (let i = 1; i <= steps; i++) {
    const eased = 1 - (1 - i / steps) ** 2;
    wobble = Math.max(-3, Math.min(3, wobble + (Math.random() < 0.5 ? -1 : 1)));
    // Every step lands on a different height from its neighbours, so even coalesced pointer
    // events keep a wobble.
    await page.mouse.move(startX + distance * eased, startY + wobble + (i % 2) * 0.5);
    await page.waitForTimeout(14 + Math.floor(Math.random() * 20));
  }
  await page.mouse.move(startX + distance, startY + wobble + 1);
  await page.waitForTimeout(60 + Math.floor(Math.random() * 60));
  await page.mouse.up();
  return nonce;
}

/** The slider's answer to a drag or a keyboard track: 'success' (also when the dialog closed) or 'fail'. */
export async function sliderVerdict(page: Page, timeout: number): Promise<'success' | 'fail'> {
  return page
    .waitForFunction(
      () => {
        const root = document.querySelector<HTMLElement>('[data-testid="slider-captcha"]');
        // Gone: the dialog closed after a successful login.
        if (!root) return 'success';
        const s = root.dataset.state;
        return s === 'success' || s === 'fail' ? s : false;
      },
      undefined,
      // Interval polling: the fail state lasts one second and animation-frame polling may miss it.
      { timeout, polling: 50 },
    )
    .then((h) => h.jsonValue() as Promise<'success' | 'fail'>);
}

/**
 * Solves the slider, trying again (as a person would) when a drag is refused: on a loaded
 * machine the browser may coalesce pointer events into a track the widget judges inhuman.
 */
export async function solveSlider(page: Page, attempts = 4): Promise<void> {
  await page.getByTestId('slider-captcha').waitFor();
  let used: string | null = null;
  for (let attempt = 1; ; attempt++) {
    used = await dragOnce(page, used);
    const state = await sliderVerdict(page, 15_000);
    if (state === 'success') return;
    if (attempt >= attempts) throw new Error(`slider captcha refused ${attempts} drags`);
  }
}
