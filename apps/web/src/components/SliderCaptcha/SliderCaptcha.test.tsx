import { beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CAPTCHA_TRACK, type CaptchaTrack } from '@contest/shared';
import { changeLocale, initI18n } from '../../i18n';
import { SliderCaptcha, type SliderCaptchaChallenge, type SliderCaptchaProps } from './SliderCaptcha';

beforeAll(() => {
  initI18n();
  changeLocale('zh-cn');
});

function challenge(n: number): SliderCaptchaChallenge {
  return {
    nonceStr: `nonce-${n}`,
    canvasSrc: `data:image/png;base64,canvas${n}`,
    blockSrc: `data:image/png;base64,block${n}`,
    blockY: 20 + n,
  };
}

interface Point {
  x: number;
  y: number;
  /** Clock reading when the event fires, in ms since the drag began. */
  at: number;
}

function setup(overrides: Partial<SliderCaptchaProps> = {}) {
  let clock = 0;
  let issued = 0;
  const fetchCaptcha = vi.fn(async () => challenge(++issued));
  const verify = vi.fn(async (_nonce: string, _distance: number, _track: CaptchaTrack) => true);
  const onSuccess = vi.fn();
  const onAgain = vi.fn();
  const onFail = vi.fn();
  render(
    <SliderCaptcha
      fetchCaptcha={fetchCaptcha}
      verify={verify}
      onSuccess={onSuccess}
      onAgain={onAgain}
      onFail={onFail}
      now={() => clock}
      failDisplayMs={20}
      {...overrides}
    />,
  );
  const root = () => screen.getByTestId('slider-captcha');
  const handle = () => screen.getByTestId('slider-handle');
  const status = () => screen.getByTestId('slider-status');
  const ready = (nonce: string) => waitFor(() => expect(root().dataset.nonce).toBe(nonce));

  /** Presses at `start`, moves through `path`, releases at the last point; `at` drives the clock. */
  const drag = (start: { x: number; y: number }, path: Point[]) => {
    const base = clock;
    fireEvent.pointerDown(handle(), { clientX: start.x, clientY: start.y, pointerId: 1, pointerType: 'mouse', button: 0 });
    path.forEach((point, i) => {
      clock = base + point.at;
      const init = { clientX: point.x, clientY: point.y, pointerId: 1, pointerType: 'mouse' };
      if (i === path.length - 1) fireEvent.pointerUp(handle(), init);
      else fireEvent.pointerMove(handle(), init);
    });
  };
  /** A human-looking drag of `distance` px to the right taking `ms`, wobbling a pixel or two. */
  const humanDrag = (distance: number, ms: number) =>
    drag({ x: 100, y: 300 }, [
      { x: 100 + distance * 0.3, y: 301, at: ms * 0.3 },
      { x: 100 + distance * 0.8, y: 302, at: ms * 0.6 },
      { x: 100 + distance, y: 301, at: ms * 0.9 },
      { x: 100 + distance, y: 300, at: ms },
    ]);

  /** Presses `key` on the handle at `at` ms (the clock), with Shift when asked. */
  const press = (key: string, at: number, shiftKey = false) => {
    clock = at;
    fireEvent.keyDown(handle(), { key, shiftKey });
  };
  const announce = () => screen.getByTestId('slider-announce');

  return { fetchCaptcha, verify, onSuccess, onAgain, onFail, root, handle, status, announce, ready, drag, humanDrag, press };
}

describe('SliderCaptcha', () => {
  it('shows 加载中... and then the captcha, with the piece at blockY and the nonce on the root', async () => {
    const { root, status, ready } = setup();
    expect(status().textContent).toBe('加载中...');
    await ready('nonce-1');
    expect(root().dataset.state).toBe('idle');
    expect(status().textContent).toBe('');
    const block = screen.getByTestId('slider-block') as HTMLImageElement;
    expect(block.getAttribute('src')).toBe('data:image/png;base64,block1');
    expect(block.style.top).toBe('21px');
    expect(root().querySelector('.slider-captcha__canvas')?.getAttribute('src')).toBe('data:image/png;base64,canvas1');
  });

  it('moves the piece with the handle and verifies the distance; a fast drag says so', async () => {
    const { verify, onSuccess, root, handle, status, ready, drag } = setup();
    await ready('nonce-1');
    fireEvent.pointerDown(handle(), { clientX: 50, clientY: 200, pointerId: 1, pointerType: 'mouse', button: 0 });
    fireEvent.pointerMove(handle(), { clientX: 150, clientY: 201, pointerId: 1, pointerType: 'mouse' });
    expect(root().dataset.state).toBe('dragging');
    expect(handle().style.left).toBe('100px');
    expect(screen.getByTestId('slider-block').style.left).toBe('100px');
    // The handle stays inside the 320 px track however far the pointer goes.
    fireEvent.pointerMove(handle(), { clientX: 900, clientY: 202, pointerId: 1, pointerType: 'mouse' });
    expect(handle().style.left).toBe('280px');
    fireEvent.pointerMove(handle(), { clientX: 187.34, clientY: 202, pointerId: 1, pointerType: 'mouse' });
    fireEvent.pointerUp(handle(), { clientX: 187.34, clientY: 201, pointerId: 1, pointerType: 'mouse' });
    await waitFor(() => expect(root().dataset.state).toBe('success'));
    // The track goes along: canvas x, y from the press, ms since the press; the release last.
    expect(verify).toHaveBeenCalledExactlyOnceWith('nonce-1', 137.3, {
      input: 'pointer',
      points: [
        [0, 0, 0],
        [100, 1, 0],
        [280, 2, 0],
        [137.3, 2, 0],
        [137.3, 1, 0],
      ],
    });
    expect(onSuccess).toHaveBeenCalledExactlyOnceWith({ nonceStr: 'nonce-1', slidingDistance: 137.3, elapsedMs: 0 });
    expect(status().textContent).toBe('只用了0.0秒，快如闪电！');
    // Once passed, the handle no longer starts a drag.
    drag({ x: 0, y: 0 }, [{ x: 50, y: 3, at: 500 }]);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it.each([
    [800, '只用了0.8秒，快如闪电！'],
    [999, '只用了0.9秒，快如闪电！'],
    [1500, '验证成功，用时1.5秒'],
    [4200, '验证通过'],
  ])('a %i ms drag succeeds with "%s"', async (ms, text) => {
    const { onSuccess, status, ready, humanDrag } = setup();
    await ready('nonce-1');
    humanDrag(120, ms);
    await waitFor(() => expect(status().textContent).toBe(text));
    expect(onSuccess).toHaveBeenCalledExactlyOnceWith({ nonceStr: 'nonce-1', slidingDistance: 120, elapsedMs: ms });
  });

  it('treats a perfectly level track as a script: fails, fires again, never verifies, loads a new captcha', async () => {
    const { verify, onAgain, onFail, onSuccess, root, ready, drag, fetchCaptcha } = setup();
    await ready('nonce-1');
    drag({ x: 100, y: 300 }, [
      { x: 140, y: 300, at: 300 },
      { x: 200, y: 300, at: 700 },
      { x: 230, y: 300, at: 1200 },
      { x: 230, y: 300, at: 1300 },
    ]);
    expect(root().dataset.state).toBe('fail');
    expect(onAgain).toHaveBeenCalledOnce();
    expect(onFail).not.toHaveBeenCalled();
    expect(verify).not.toHaveBeenCalled();
    expect(onSuccess).not.toHaveBeenCalled();
    await ready('nonce-2');
    expect(fetchCaptcha).toHaveBeenCalledTimes(2);
    expect(root().dataset.state).toBe('idle');
  });

  it('fails a drag over 10 s without verifying, then loads a new captcha', async () => {
    const { verify, onFail, onSuccess, root, status, ready, humanDrag } = setup();
    await ready('nonce-1');
    humanDrag(150, 10_001);
    expect(root().dataset.state).toBe('fail');
    expect(status().textContent).toBe('拖动超时，请重试');
    expect(verify).not.toHaveBeenCalled();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(onFail).toHaveBeenCalledOnce();
    await ready('nonce-2');
  });

  it('a drag of exactly 10 s still counts', async () => {
    const { verify, ready, humanDrag } = setup();
    await ready('nonce-1');
    humanDrag(150, 10_000);
    await waitFor(() => expect(verify).toHaveBeenCalledOnce());
  });

  it('a wrong position fails, shows the failure, then fetches a new captcha to try again', async () => {
    const verify = vi.fn(async () => false);
    // The failure shows long enough to read it here even on a loaded machine (20 ms did not).
    const { onFail, onSuccess, root, status, ready, humanDrag, fetchCaptcha } = setup({ verify, failDisplayMs: 400 });
    await ready('nonce-1');
    humanDrag(90, 1500);
    await waitFor(() => expect(root().dataset.state).toBe('fail'));
    expect(verify).toHaveBeenCalledExactlyOnceWith('nonce-1', 90, expect.objectContaining({ input: 'pointer' }));
    expect(status().textContent).toBe('验证失败，请重试');
    expect(onFail).toHaveBeenCalledOnce();
    expect(onSuccess).not.toHaveBeenCalled();
    await ready('nonce-2');
    expect(fetchCaptcha).toHaveBeenCalledTimes(2);
    expect(root().dataset.state).toBe('idle');
    expect(screen.getByTestId('slider-handle').style.left).toBe('0px');
  });

  it('a failing verify call counts as a failed attempt', async () => {
    const verify = vi.fn(async () => {
      throw new Error('network');
    });
    const { onFail, ready, humanDrag } = setup({ verify });
    await ready('nonce-1');
    humanDrag(90, 1500);
    await waitFor(() => expect(onFail).toHaveBeenCalledOnce());
    await ready('nonce-2');
  });

  it('a press without movement is not an attempt', async () => {
    const { verify, onFail, onAgain, root, ready, drag } = setup();
    await ready('nonce-1');
    drag({ x: 100, y: 300 }, [{ x: 100, y: 300, at: 200 }]);
    expect(root().dataset.state).toBe('idle');
    expect(verify).not.toHaveBeenCalled();
    expect(onFail).not.toHaveBeenCalled();
    expect(onAgain).not.toHaveBeenCalled();
  });

  it('the refresh button fetches a new captcha', async () => {
    const { fetchCaptcha, ready } = setup();
    await ready('nonce-1');
    await act(async () => {
      fireEvent.click(screen.getByTestId('slider-refresh'));
    });
    await ready('nonce-2');
    expect(fetchCaptcha).toHaveBeenCalledTimes(2);
  });

  it('a failed load says so and the refresh button recovers', async () => {
    const fetchCaptcha = vi
      .fn<() => Promise<SliderCaptchaChallenge>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(challenge(7));
    const { status, ready, handle, verify } = setup({ fetchCaptcha });
    await waitFor(() => expect(status().textContent).toBe('加载失败，请点击刷新重试'));
    fireEvent.pointerDown(handle(), { clientX: 0, clientY: 0, pointerId: 1, pointerType: 'mouse', button: 0 });
    fireEvent.pointerUp(handle(), { clientX: 80, clientY: 4, pointerId: 1, pointerType: 'mouse' });
    expect(verify).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('slider-refresh'));
    await ready('nonce-7');
  });

  it('works with touch pointers too', async () => {
    const { verify, onSuccess, handle, ready } = setup();
    await ready('nonce-1');
    fireEvent.pointerDown(handle(), { clientX: 20, clientY: 400, pointerId: 7, pointerType: 'touch' });
    // Another finger's events are ignored.
    fireEvent.pointerMove(handle(), { clientX: 300, clientY: 390, pointerId: 8, pointerType: 'touch' });
    fireEvent.pointerMove(handle(), { clientX: 120, clientY: 403, pointerId: 7, pointerType: 'touch' });
    fireEvent.pointerUp(handle(), { clientX: 130, clientY: 404, pointerId: 7, pointerType: 'touch' });
    await waitFor(() => expect(onSuccess).toHaveBeenCalledOnce());
    expect(verify).toHaveBeenCalledExactlyOnceWith('nonce-1', 110, {
      input: 'pointer',
      points: [
        [0, 0, 0],
        [100, 3, 0],
        [110, 4, 0],
      ],
    });
  });
});

describe('SliderCaptcha from the keyboard and for screen readers', () => {
  it('the handle is a focusable slider with a name, range, value and keyboard instructions', async () => {
    const { handle, ready } = setup();
    await ready('nonce-1');
    const slider = screen.getByRole('slider', { name: '拼图滑块' });
    expect(slider).toBe(handle());
    expect(slider.tabIndex).toBe(0);
    expect(slider.getAttribute('aria-valuemin')).toBe('0');
    expect(slider.getAttribute('aria-valuemax')).toBe('280');
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    expect(slider.getAttribute('aria-valuetext')).toBe('已移动 0 像素');
    expect(slider.getAttribute('aria-disabled')).toBe('false');
    const hint = document.getElementById(slider.getAttribute('aria-describedby')!);
    expect(hint?.textContent).toContain('方向键');
    expect(hint?.textContent).toContain('回车');
  });

  it('arrow keys move the piece; Enter sends the presses as a keyboard track with their real times', async () => {
    const { verify, onSuccess, root, handle, ready, press, announce } = setup();
    await ready('nonce-1');
    press('ArrowRight', 1000);
    expect(root().dataset.state).toBe('dragging');
    press('ArrowRight', 1150, true);
    press('PageUp', 1400);
    press('ArrowLeft', 1520);
    expect(handle().style.left).toBe('40px');
    expect(screen.getByTestId('slider-block').style.left).toBe('40px');
    expect(handle().getAttribute('aria-valuenow')).toBe('40');
    expect(handle().getAttribute('aria-valuetext')).toBe('已移动 40 像素');
    expect(verify).not.toHaveBeenCalled();
    press('Enter', 1900);
    await waitFor(() => expect(root().dataset.state).toBe('success'));
    expect(verify).toHaveBeenCalledExactlyOnceWith('nonce-1', 40, {
      input: 'keyboard',
      points: [
        [0, 0, 0],
        [CAPTCHA_TRACK.keySmallStep, 0, 0],
        [22, 0, 150],
        [42, 0, 400],
        [40, 0, 520],
        [40, 0, 900],
      ],
    });
    expect(onSuccess).toHaveBeenCalledExactlyOnceWith({ nonceStr: 'nonce-1', slidingDistance: 40, elapsedMs: 900 });
    expect(announce().textContent).toBe('验证成功');
  });

  it('keys stay inside the track, and Enter before any move does nothing', async () => {
    const { verify, handle, ready, press, root } = setup();
    await ready('nonce-1');
    press('Enter', 100);
    press('ArrowLeft', 200);
    expect(handle().style.left).toBe('0px');
    press('Enter', 300);
    expect(verify).not.toHaveBeenCalled();
    for (let i = 0; i < 20; i++) press('PageUp', 400 + i * 50);
    expect(handle().getAttribute('aria-valuenow')).toBe('280');
    expect(root().dataset.state).toBe('dragging');
  });

  it('a keyboard attempt over 10 s fails as timed out and says so to screen readers', async () => {
    const { verify, onFail, root, ready, press, announce } = setup();
    await ready('nonce-1');
    press('PageUp', 0);
    press('PageUp', 4000);
    press('PageUp', 10_001);
    expect(root().dataset.state).toBe('fail');
    expect(announce().textContent).toBe('拖动超时，请重试');
    expect(onFail).toHaveBeenCalledOnce();
    expect(verify).not.toHaveBeenCalled();
    await ready('nonce-2');
  });

  it('a refused keyboard attempt announces the failure, then starts again on a new captcha', async () => {
    const verify = vi.fn(async () => false);
    const { root, ready, press, announce, handle } = setup({ verify });
    await ready('nonce-1');
    press('PageUp', 0);
    press('PageUp', 300);
    press('Enter', 800);
    await waitFor(() => expect(announce().textContent).toBe('验证失败，请重试'));
    // The visible line is hidden from screen readers: the live region says it once.
    expect(screen.getByTestId('slider-status').getAttribute('aria-hidden')).toBe('true');
    expect(announce().getAttribute('aria-live')).toBe('polite');
    await ready('nonce-2');
    expect(root().dataset.state).toBe('idle');
    expect(handle().getAttribute('aria-valuenow')).toBe('0');
    press('ArrowRight', 5000);
    expect(root().dataset.state).toBe('dragging');
  });

  it('keys do nothing while the captcha loads', async () => {
    const { verify, handle, press, ready, root } = setup();
    press('PageUp', 0);
    press('Enter', 10);
    expect(handle().style.left).toBe('0px');
    await ready('nonce-1');
    expect(root().dataset.state).toBe('idle');
    expect(verify).not.toHaveBeenCalled();
  });

  it('autoFocus puts focus on the handle', async () => {
    const { handle } = setup({ autoFocus: true });
    expect(document.activeElement).toBe(handle());
  });

  it('a long drag is thinned to the point limit, its ends kept', async () => {
    const { verify, ready, drag } = setup();
    await ready('nonce-1');
    const path = Array.from({ length: 600 }, (_, i) => ({ x: 100 + (i * 150) / 599, y: 300 + (i % 5), at: i * 5 }));
    drag({ x: 100, y: 300 }, path);
    await waitFor(() => expect(verify).toHaveBeenCalledOnce());
    const track = verify.mock.calls[0]![2];
    expect(track.points.length).toBe(CAPTCHA_TRACK.maxPoints);
    expect(track.points[0]).toEqual([0, 0, 0]);
    expect(track.points.at(-1)).toEqual([150, 4, 2995]);
  });
});

describe('SliderCaptcha in English', () => {
  it('speaks the chosen language, success text included', async () => {
    changeLocale('en');
    try {
      const c = setup();
      await c.ready('nonce-1');
      expect(screen.getByText('Drag the slider to complete the puzzle')).toBeTruthy();
      c.humanDrag(120, 800);
      await waitFor(() => expect(c.status().textContent).toBe('Only 0.8 s, lightning fast!'));
    } finally {
      changeLocale('zh-cn');
    }
  });
});
