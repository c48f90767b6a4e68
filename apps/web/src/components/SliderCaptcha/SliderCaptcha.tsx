import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { Button, Spin } from 'antd';
import { ArrowRightOutlined, CheckOutlined, CloseOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CAPTCHA, CAPTCHA_TRACK, type CaptchaInput, type CaptchaTrack } from '@contest/shared';
import './slider-captcha.css';

/** What GET /api/captcha returns. */
export interface SliderCaptchaChallenge {
  nonceStr: string;
  canvasSrc: string;
  blockSrc: string;
  blockY: number;
}

export interface SliderCaptchaResult {
  nonceStr: string;
  /** Where the piece was dropped, in the captcha's 320 px space (what the server checks). */
  slidingDistance: number;
  elapsedMs: number;
}

export type SliderCaptchaState = 'idle' | 'dragging' | 'verifying' | 'success' | 'fail';

export interface SliderCaptchaProps {
  fetchCaptcha(): Promise<SliderCaptchaChallenge>;
  /** The server's check; `track` is how the handle got there (pointer drag or key presses). */
  verify(nonceStr: string, slidingDistance: number, track: CaptchaTrack): Promise<boolean>;
  onSuccess(result: SliderCaptchaResult): void;
  /** The drag looked scripted (no vertical wobble at all); a new captcha follows. */
  onAgain?(): void;
  /** Wrong position, drag over the time limit, or the check call failed; a new captcha follows. */
  onFail?(): void;
  /** Clock for timing the drag; tests inject one. */
  now?: () => number;
  /** How long a failure stays on screen before the next captcha loads. */
  failDisplayMs?: number;
  /** Focus the handle on mount, so keyboard users start on it (the captcha dialog does). */
  autoFocus?: boolean;
  className?: string;
}

const HANDLE_WIDTH = 40;
const DEFAULT_FAIL_DISPLAY_MS = 1000;

type Translate = (key: string, options?: Record<string, unknown>) => string;

function textsOf(t: Translate) {
  return {
    hint: t('auth.captcha.hint'),
    loading: t('auth.captcha.loading'),
    loadFailed: t('auth.captcha.loadFailed'),
    verifying: t('auth.captcha.verifying'),
    fail: t('auth.captcha.fail'),
    timeout: t('auth.captcha.timeout'),
    again: t('auth.captcha.again'),
    refresh: t('auth.captcha.refresh'),
    handle: t('auth.captcha.handle'),
    keyboardHint: t('auth.captcha.keyboardHint'),
    announceSuccess: t('auth.captcha.announceSuccess'),
  };
}

/** The spec only fixes the thresholds (under 1 s, under 2 s, slower); the wording is ours. */
function successText(elapsedMs: number, t: Translate): string {
  // Floor, so 999 ms reads 0.9 s rather than a contradictory "1.0 s" in the under-1 s text.
  const seconds = (Math.floor(elapsedMs / 100) / 10).toFixed(1);
  if (elapsedMs < 1000) return t('auth.captcha.successFast', { seconds });
  if (elapsedMs < 2000) return t('auth.captcha.success', { seconds });
  return t('auth.captcha.passed');
}

const defaultNow = () => performance.now();
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const tenth = (value: number) => Math.round(value * 10) / 10;

type Point = [x: number, y: number, t: number];

interface Drag {
  pointerId: number;
  startX: number;
  startY: number;
  startAt: number;
  ys: number[];
  /** [x in canvas px, y from the press in CSS px, ms since the press], for the server. */
  points: Point[];
  offset: number;
  maxOffset: number;
  detach(): void;
}

/** Arrow keys drive the handle too; the presses are the track, timed like a drag. */
interface KeyMoves {
  startAt: number;
  /** The handle's position in canvas px. */
  x: number;
  points: Point[];
}

/** Canvas px a key moves the handle: small steps with arrows, big ones with Shift or PageUp/PageDown. */
function keyStep(event: ReactKeyboardEvent): number | null {
  const small = event.shiftKey ? CAPTCHA_TRACK.keyBigStep : CAPTCHA_TRACK.keySmallStep;
  switch (event.key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return small;
    case 'ArrowLeft':
    case 'ArrowDown':
      return -small;
    case 'PageUp':
      return CAPTCHA_TRACK.keyBigStep;
    case 'PageDown':
      return -CAPTCHA_TRACK.keyBigStep;
    default:
      return null;
  }
}

/** Long drags (fast pointers report up to 240 events a second) are thinned evenly, ends kept. */
function thin(points: Point[], max: number = CAPTCHA_TRACK.maxPoints): Point[] {
  if (points.length <= max) return points;
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)]!);
}

type FailKind = 'wrong' | 'timeout' | 'again';

/**
 * Slider jigsaw captcha (docs/rules/identity.md, "Slider captcha"): drag the handle so the piece fills the hole; the
 * server judges the position. Drags over CAPTCHA.dragLimitMs and perfectly flat tracks fail
 * locally without spending a verify call; every failure loads a fresh captcha.
 */
export function SliderCaptcha({
  fetchCaptcha,
  verify,
  onSuccess,
  onAgain,
  onFail,
  now = defaultNow,
  failDisplayMs = DEFAULT_FAIL_DISPLAY_MS,
  autoFocus = false,
  className,
}: SliderCaptchaProps) {
  const { t } = useTranslation();
  const text = textsOf(t as Translate);
  // Callbacks outlive a render: they read the texts of the current language through refs.
  const textRef = useRef(text);
  textRef.current = text;
  const tRef = useRef(t as Translate);
  tRef.current = t as Translate;
  const [challenge, setChallenge] = useState<SliderCaptchaChallenge | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadFailed, setLoadFailed] = useState(false);
  const [phase, setPhase] = useState<SliderCaptchaState>('idle');
  const [offset, setOffset] = useState(0);
  const [message, setMessage] = useState('');
  const [scale, setScale] = useState(1);

  const imageRef = useRef<HTMLDivElement>(null);
  const trackRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<HTMLDivElement>(null);
  const dragRef = useRef<Drag | null>(null);
  const keysRef = useRef<KeyMoves | null>(null);
  const hintId = useId();
  const challengeRef = useRef<SliderCaptchaChallenge | null>(null);
  // Bumped by every load and by unmount: late answers of an older captcha are ignored.
  const generationRef = useRef(0);
  const timersRef = useRef(new Set<ReturnType<typeof setTimeout>>());
  // Handlers live on window during a drag, so they read the latest props through a ref.
  const propsRef = useRef({ fetchCaptcha, verify, onSuccess, onAgain, onFail, now, failDisplayMs });
  useLayoutEffect(() => {
    propsRef.current = { fetchCaptcha, verify, onSuccess, onAgain, onFail, now, failDisplayMs };
  });

  const later = useCallback((fn: () => void, ms: number) => {
    const id = setTimeout(() => {
      timersRef.current.delete(id);
      fn();
    }, ms);
    timersRef.current.add(id);
  }, []);

  const clearTimers = useCallback(() => {
    for (const id of timersRef.current) clearTimeout(id);
    timersRef.current.clear();
  }, []);

  const stopDrag = useCallback(() => {
    dragRef.current?.detach();
    dragRef.current = null;
    keysRef.current = null;
  }, []);

  const load = useCallback(async () => {
    const generation = ++generationRef.current;
    stopDrag();
    clearTimers();
    setLoading(true);
    setLoadFailed(false);
    setPhase('idle');
    setOffset(0);
    setMessage('');
    try {
      const next = await propsRef.current.fetchCaptcha();
      if (generation !== generationRef.current) return;
      challengeRef.current = next;
      setChallenge(next);
    } catch {
      if (generation !== generationRef.current) return;
      challengeRef.current = null;
      setChallenge(null);
      setLoadFailed(true);
    }
    setLoading(false);
  }, [clearTimers, stopDrag]);

  // On mount only (autoFocus does not change): later renders must not pull focus back from the
  // refresh button.
  // Nor does a slider mounted again take focus from another control of its dialog (the code
  // alternative's field, say).
  useEffect(() => {
    const handle = handleRef.current;
    if (!autoFocus || !handle) return;
    const dialog = handle.closest('.ant-modal');
    const active = document.activeElement;
    if (dialog && active && active !== document.body && dialog.contains(active) && !active.classList.contains('ant-modal-content')) return;
    handle.focus({ preventScroll: true });
  }, [autoFocus]);

  useEffect(() => {
    void load();
    return () => {
      generationRef.current++;
      stopDrag();
      clearTimers();
    };
  }, [load, stopDrag, clearTimers]);

  // The captcha is drawn in a fixed 320 px space; on narrower screens it is scaled down and
  // distances are converted back, so the server always sees canvas pixels.
  useLayoutEffect(() => {
    const el = imageRef.current;
    if (!el) return;
    const measure = () => {
      const width = el.clientWidth;
      setScale(width > 0 ? Math.min(1, width / CAPTCHA.canvasWidth) : 1);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const fail = useCallback(
    (kind: FailKind) => {
      stopDrag();
      const generation = generationRef.current;
      setPhase('fail');
      const text = textRef.current;
      setMessage(kind === 'timeout' ? text.timeout : kind === 'again' ? text.again : text.fail);
      if (kind === 'again') propsRef.current.onAgain?.();
      else propsRef.current.onFail?.();
      later(() => {
        if (generation === generationRef.current) void load();
      }, propsRef.current.failDisplayMs);
    },
    [later, load, stopDrag],
  );

  /** Judges an attempt locally (time limit, level track), then asks the server. */
  const finish = useCallback(
    async (attempt: { input: CaptchaInput; points: Point[]; slidingDistance: number; elapsedMs: number; ys?: number[] }) => {
      const { verify: check } = propsRef.current;
      const { elapsedMs, slidingDistance } = attempt;
      const current = challengeRef.current;
      if (!current) return;
      // A click without movement is not an attempt.
      if (slidingDistance * scale < 1) {
        setPhase('idle');
        setOffset(0);
        return;
      }
      if (elapsedMs > CAPTCHA.dragLimitMs) return fail('timeout');
      // People never drag perfectly level; a track with no vertical variance is a script. Keys
      // have no vertical movement at all: the server judges their timing instead.
      if (attempt.ys && attempt.ys.every((y) => y === attempt.ys![0])) return fail('again');

      const generation = generationRef.current;
      setPhase('verifying');
      setMessage(textRef.current.verifying);
      let passed: boolean;
      try {
        passed = await check(current.nonceStr, slidingDistance, { input: attempt.input, points: thin(attempt.points) });
      } catch {
        // A network error counts as a failed attempt: the nonce may already be spent.
        passed = false;
      }
      if (generation !== generationRef.current) return;
      if (!passed) return fail('wrong');
      setPhase('success');
      setMessage(successText(elapsedMs, tRef.current));
      propsRef.current.onSuccess({ nonceStr: current.nonceStr, slidingDistance, elapsedMs });
    },
    [fail, scale],
  );

  const finishDrag = (drag: Drag) => {
    const elapsedMs = Math.round(propsRef.current.now() - drag.startAt);
    const slidingDistance = tenth(drag.offset / scale);
    const points = [...drag.points];
    // The release is the track's last point, at the distance sent.
    points.push([slidingDistance, tenth((drag.ys.at(-1) ?? drag.startY) - drag.startY), Math.max(elapsedMs, points.at(-1)![2])]);
    void finish({ input: 'pointer', points, slidingDistance, elapsedMs, ys: drag.ys });
  };

  const interactive = phase === 'idle' && !loading && !!challenge;

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    const step = keyStep(event);
    const enter = event.key === 'Enter';
    if (step === null && !enter) return;
    event.preventDefault();
    if (loading || !challengeRef.current || dragRef.current) return;
    const keys = keysRef.current;
    if (!keys && phase !== 'idle') return;
    const clock = propsRef.current.now();
    if (enter) {
      if (!keys || keys.x * scale < 1) return;
      keysRef.current = null;
      const elapsedMs = Math.round(clock - keys.startAt);
      keys.points.push([keys.x, 0, Math.max(elapsedMs, keys.points.at(-1)![2] + 1)]);
      void finish({ input: 'keyboard', points: keys.points, slidingDistance: keys.x, elapsedMs });
      return;
    }
    const maxX = Math.max(0, (trackRef.current?.clientWidth || CAPTCHA.canvasWidth * scale) - HANDLE_WIDTH) / scale;
    let moves = keys;
    if (!moves) {
      // The first key starts the clock, as pressing the handle does.
      moves = { startAt: clock, x: 0, points: [[0, 0, 0]] };
      keysRef.current = moves;
      setPhase('dragging');
      setMessage('');
      const started = moves;
      later(() => {
        if (keysRef.current === started) fail('timeout');
      }, CAPTCHA.dragLimitMs + 50);
    }
    const t = Math.round(clock - moves.startAt);
    if (t > CAPTCHA.dragLimitMs) return fail('timeout');
    // Room is kept for Enter's point; a person never needs this many presses.
    if (moves.points.length >= CAPTCHA_TRACK.maxPoints - 1) return;
    const x = tenth(clamp(moves.x + step!, 0, maxX));
    const last = moves.points.at(-1)![2];
    moves.x = x;
    moves.points.push([x, 0, moves.points.length === 1 ? t : Math.max(t, last + 1)]);
    setOffset(x * scale);
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (phase !== 'idle' || loading || !challengeRef.current || dragRef.current || keysRef.current) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault();
    const handle = event.currentTarget;
    try {
      handle.setPointerCapture?.(event.pointerId);
    } catch {
      // Capture is a nicety (keeps events when the pointer leaves the handle); window listeners suffice.
    }
    const trackWidth = trackRef.current?.clientWidth || CAPTCHA.canvasWidth * scale;
    const pointerId = event.pointerId;
    const onMove = (e: PointerEvent) => {
      const drag = dragRef.current;
      if (!drag || e.pointerId !== pointerId) return;
      const elapsed = propsRef.current.now() - drag.startAt;
      if (elapsed > CAPTCHA.dragLimitMs) return fail('timeout');
      drag.ys.push(e.clientY);
      drag.offset = clamp(e.clientX - drag.startX, 0, drag.maxOffset);
      drag.points.push([tenth(drag.offset / scale), tenth(e.clientY - drag.startY), Math.round(elapsed)]);
      setOffset(drag.offset);
    };
    const onUp = (e: PointerEvent) => {
      const drag = dragRef.current;
      if (!drag || e.pointerId !== pointerId) return;
      drag.ys.push(e.clientY);
      drag.offset = clamp(e.clientX - drag.startX, 0, drag.maxOffset);
      setOffset(drag.offset);
      stopDrag();
      finishDrag(drag);
    };
    const onCancel = (e: PointerEvent) => {
      if (!dragRef.current || e.pointerId !== pointerId) return;
      // The browser took the gesture over (scroll, system UI): start again without counting it.
      stopDrag();
      setPhase('idle');
      setOffset(0);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onCancel);
    dragRef.current = {
      pointerId,
      startX: event.clientX,
      startY: event.clientY,
      startAt: propsRef.current.now(),
      ys: [event.clientY],
      points: [[0, 0, 0]],
      offset: 0,
      maxOffset: Math.max(0, trackWidth - HANDLE_WIDTH),
      detach: () => {
        window.removeEventListener('pointermove', onMove);
        window.removeEventListener('pointerup', onUp);
        window.removeEventListener('pointercancel', onCancel);
      },
    };
    // Also fail a drag that is simply held past the limit, without waiting for the release.
    later(() => {
      if (dragRef.current?.pointerId === pointerId) fail('timeout');
    }, CAPTCHA.dragLimitMs + 50);
    setPhase('dragging');
    setMessage('');
  };

  const statusText = loading
    ? text.loading
    : loadFailed
      ? text.loadFailed
      : message;
  // What a screen reader hears: the visible texts, except that success is always said plainly.
  const announcement = phase === 'success' ? text.announceSuccess : statusText;
  const maxCanvasX = Math.round(Math.max(0, (trackRef.current?.clientWidth || CAPTCHA.canvasWidth * scale) - HANDLE_WIDTH) / scale);
  const valueNow = Math.round(offset / scale);
  const rootClass = [
    'slider-captcha',
    `slider-captcha--${phase}`,
    phase === 'dragging' ? '' : 'slider-captcha--settling',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  const handleIcon = phase === 'success' ? <CheckOutlined /> : phase === 'fail' ? <CloseOutlined /> : <ArrowRightOutlined />;

  return (
    <div className={rootClass} data-testid="slider-captcha" data-nonce={challenge?.nonceStr ?? ''} data-state={phase}>
      <div className="slider-captcha__image" ref={imageRef} style={{ height: CAPTCHA.canvasHeight * scale }}>
        {challenge && !loading && (
          <div className="slider-captcha__stage" style={{ transform: scale === 1 ? undefined : `scale(${scale})` }}>
            <img className="slider-captcha__canvas" src={challenge.canvasSrc} alt="" draggable={false} />
            <img
              className="slider-captcha__block"
              data-testid="slider-block"
              src={challenge.blockSrc}
              alt=""
              draggable={false}
              style={{ top: challenge.blockY, left: offset / scale }}
            />
          </div>
        )}
        {loading && (
          <div className="slider-captcha__loading" aria-hidden>
            <Spin size="small" />
            <span>{text.loading}</span>
          </div>
        )}
        {(phase === 'success' || phase === 'fail') && (
          <div className={`slider-captcha__banner slider-captcha__banner--${phase}`} aria-hidden>
            {message}
          </div>
        )}
        <Button
          className="slider-captcha__refresh"
          data-testid="slider-refresh"
          size="small"
          shape="circle"
          icon={<ReloadOutlined />}
          aria-label={text.refresh}
          title={text.refresh}
          disabled={phase === 'verifying' || phase === 'dragging'}
          onClick={() => void load()}
        />
      </div>
      <div className="slider-captcha__track" ref={trackRef}>
        <div className="slider-captcha__fill" style={{ width: offset > 0 ? offset + HANDLE_WIDTH / 2 : 0 }} />
        {phase === 'idle' && offset === 0 && <span className="slider-captcha__hint">{text.hint}</span>}
        <div
          ref={handleRef}
          className="slider-captcha__handle"
          data-testid="slider-handle"
          role="slider"
          tabIndex={0}
          aria-label={text.handle}
          aria-describedby={hintId}
          aria-valuemin={0}
          aria-valuemax={maxCanvasX}
          aria-valuenow={valueNow}
          aria-valuetext={t('auth.captcha.valueText', { value: valueNow })}
          aria-disabled={!interactive && phase !== 'dragging'}
          style={{ left: offset }}
          onPointerDown={onPointerDown}
          onKeyDown={onKeyDown}
        >
          {handleIcon}
        </div>
      </div>
      {/* Read out by the live region below instead, so nothing is announced twice. */}
      <div className={`slider-captcha__status slider-captcha__status--${phase}`} data-testid="slider-status" aria-hidden>
        {statusText}
      </div>
      <div className="slider-captcha__sr-only" id={hintId}>
        {text.keyboardHint}
      </div>
      <div className="slider-captcha__sr-only" data-testid="slider-announce" role="status" aria-live="polite">
        {announcement}
      </div>
    </div>
  );
}
