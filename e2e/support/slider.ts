import type { Page } from 'playwright-core';

/**
 * Solves the slider captcha the way a person does: by looking at the pictures. The hole in the
 * background is the piece's shape darkened by a translucent black fill, so the piece's pixels
 * times that darkening should match the background at the right offset. No test hook on the
 * server: production builds stay exactly as shipped.
 */
export async function findGap(page: Page): Promise<number> {
  return page.evaluate(async () => {
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
      return ctx.getImageData(0, 0, c.width, c.height);
    };
    const bg = pixels(await load(canvasImg.src));
    const block = pixels(await load(blockImg.src));
    const top = Math.round(parseFloat(blockImg.style.top || '0'));
    // Opaque interior pixels of the piece, away from its drawn rim.
    const inside: Array<[number, number]> = [];
    for (let y = 3; y < block.height - 3; y++) {
      for (let x = 3; x < block.width - 3; x++) {
        let solid = true;
        for (const [dx, dy] of [[0, 0], [3, 0], [-3, 0], [0, 3], [0, -3]] as const) {
          if (block.data[((y + dy) * block.width + (x + dx)) * 4 + 3]! < 255) solid = false;
        }
        if (solid) inside.push([x, y]);
      }
    }
    let best = 0;
    let bestError = Infinity;
    for (let offset = 0; offset + block.width <= bg.width; offset++) {
      let error = 0;
      for (const [x, y] of inside) {
        const by = y + top;
        if (by < 0 || by >= bg.height) continue;
        const b = (by * bg.width + x + offset) * 4;
        const p = (y * block.width + x) * 4;
        for (let ch = 0; ch < 3; ch++) error += Math.abs(bg.data[b + ch]! - block.data[p + ch]! * 0.55);
      }
      if (error < bestError) {
        bestError = error;
        best = offset;
      }
    }
    return best;
  });
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
  const steps = 18;
  for (let i = 1; i <= steps; i++) {
    const eased = 1 - (1 - i / steps) ** 2;
    // Every step lands on a different height, so even coalesced pointer events keep a wobble.
    await page.mouse.move(startX + distance * eased, startY + ((i % 3) - 1) * 2 + (i % 2));
    await page.waitForTimeout(15 + (i % 4) * 7);
  }
  await page.mouse.move(startX + distance, startY + 1);
  await page.waitForTimeout(60);
  await page.mouse.up();
  return nonce;
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
    const state = await page
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
        { timeout: 15_000, polling: 50 },
      )
      .then((h) => h.jsonValue());
    if (state === 'success') return;
    if (attempt >= attempts) throw new Error(`slider captcha refused ${attempts} drags`);
  }
}
