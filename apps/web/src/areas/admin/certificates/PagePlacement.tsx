/**
 * The template's page, scaled to the card (docs/certificates.md, "Templates"): the background and
 * every placed field as a box at its position, width, size, alignment and weight. A box can be
 * dragged with the mouse or a finger, or moved with the arrow keys once focused (Shift: larger
 * steps); the field list beside it takes the same values as numbers, the way for keyboard users.
 * Text sizes scale with the page (container query units), so the layout reads as printed.
 */
import { useRef, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CertificateOrientation, CertificatePageSize } from '@contest/shared';
import { clamp, pagePoints, roundFraction, toPercent, type FieldDraft } from './template-draft';

export interface PagePlacementProps {
  pageSize: CertificatePageSize;
  orientation: CertificateOrientation;
  backgroundUrl: string | null;
  fields: readonly FieldDraft[];
  selected: string | null;
  onSelect(uid: string): void;
  onMove(uid: string, x: number, y: number): void;
  /** What a box shows: the field's name, or a fixed field's text. */
  labelOf(field: FieldDraft): string;
  disabled?: boolean;
}

/** Arrow-key steps, as fractions of the page. */
const STEP = 0.005;
const BIG_STEP = 0.05;

interface DragState {
  uid: string;
  pointerId: number;
  startX: number;
  startY: number;
  fieldX: number;
  fieldY: number;
  moved: boolean;
}

export function PagePlacement({ pageSize, orientation, backgroundUrl, fields, selected, onSelect, onMove, labelOf, disabled = false }: PagePlacementProps) {
  const { t } = useTranslation('certificates');
  const pageRef = useRef<HTMLDivElement>(null);
  const drag = useRef<DragState | null>(null);
  const page = pagePoints(pageSize, orientation);

  /** Highest y so a box (a QR square: its side in page heights) stays on the page. */
  const maxY = (f: FieldDraft) => (f.key === 'qr' ? Math.max(0, 1 - (f.width * page.width) / page.height) : 1);
  const place = (f: FieldDraft, x: number, y: number) => onMove(f.uid, roundFraction(clamp(x, 0, 1 - f.width)), roundFraction(clamp(y, 0, maxY(f))));

  const onPointerDown = (f: FieldDraft) => (event: PointerEvent<HTMLButtonElement>) => {
    if (disabled || event.button !== 0) return;
    onSelect(f.uid);
    drag.current = { uid: f.uid, pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, fieldX: f.x, fieldY: f.y, moved: false };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (f: FieldDraft) => (event: PointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    const rect = pageRef.current?.getBoundingClientRect();
    if (!d || d.uid !== f.uid || d.pointerId !== event.pointerId || !rect || rect.width === 0) return;
    d.moved = true;
    place(f, d.fieldX + (event.clientX - d.startX) / rect.width, d.fieldY + (event.clientY - d.startY) / rect.height);
  };
  const onPointerUp = (event: PointerEvent<HTMLButtonElement>) => {
    if (drag.current?.pointerId === event.pointerId) drag.current = null;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
  };
  const onKeyDown = (f: FieldDraft) => (event: KeyboardEvent<HTMLButtonElement>) => {
    if (disabled) return;
    const step = event.shiftKey ? BIG_STEP : STEP;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    place(f, f.x + move[0], f.y + move[1]);
  };

  const pageStyle: CSSProperties = {
    aspectRatio: `${page.width} / ${page.height}`,
    ...(backgroundUrl ? { backgroundImage: `url("${backgroundUrl}")` } : {}),
  };

  return (
    <div className="cert-page-wrap">
      <div
        ref={pageRef}
        className="cert-page"
        style={pageStyle}
        role="group"
        aria-label={t('editor.pageLabel', { count: fields.length })}
        data-testid="cert-page"
        data-orientation={orientation}
      >
        {fields.map((f) => {
          const qr = f.key === 'qr';
          const style: CSSProperties = {
            left: `${toPercent(f.x)}%`,
            top: `${toPercent(f.y)}%`,
            width: `${toPercent(f.width)}%`,
            ...(qr
              ? { aspectRatio: '1 / 1' }
              : {
                  // Points on a page `page.width` points wide, as a share of the drawn page's width.
                  fontSize: `${((f.fontSize / page.width) * 100).toFixed(3)}cqw`,
                  textAlign: f.align,
                  fontWeight: f.bold ? 700 : 400,
                  color: f.color,
                }),
          };
          const label = labelOf(f);
          return (
            <button
              key={f.uid}
              type="button"
              className={`cert-field${qr ? ' cert-field--qr' : ''}${selected === f.uid ? ' cert-field--selected' : ''}`}
              style={style}
              aria-label={`${label} (${toPercent(f.x)}%, ${toPercent(f.y)}%)`}
              aria-pressed={selected === f.uid}
              onClick={() => onSelect(f.uid)}
              onPointerDown={onPointerDown(f)}
              onPointerMove={onPointerMove(f)}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
              onKeyDown={onKeyDown(f)}
              data-testid="cert-field-box"
              data-key={f.key}
            >
              {qr ? <span className="cert-field__qr" aria-hidden>QR</span> : label}
            </button>
          );
        })}
      </div>
    </div>
  );
}
