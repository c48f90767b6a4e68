import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppDialog } from './AppDialog';
import { EMPTY_CELL, isEmptyCell } from './DataTable';
import './kit.css';

export interface LabelValueProps {
  /**
   * Shown before the value, followed by one colon (drawn by the style; a colon at the end of a
   * text label is dropped). null when something else labels the value, e.g. a Descriptions item.
   */
  label: ReactNode;
  value?: ReactNode;
  /**
   * Server-sanitised HTML (the server cleans rich text with an allow-list before storing it);
   * never pass text a user typed that the server has not cleaned.
   */
  html?: string | null;
  /** Clamp to two lines and offer a details link when the text is longer. */
  ellipsis?: boolean;
}

/** Whether an element clamped by CSS hides part of its content. */
export function isClamped(el: HTMLElement): boolean {
  return el.scrollHeight > el.clientHeight + 1;
}

/** A text label without its trailing colon: the style adds one, and two read as 用户名：：. */
function labelText(label: ReactNode): ReactNode {
  return typeof label === 'string' ? label.replace(/\s*[:：]\s*$/, '') : label;
}

/** Label/value item (docs/rules/screens.md, "Shared widgets"): '--' when empty, optional HTML, two-line ellipsis with a details link. */
export function LabelValue({ label, value, html, ellipsis = false }: LabelValueProps) {
  const { t } = useTranslation('admin');
  const ref = useRef<HTMLDivElement>(null);
  const [clamped, setClamped] = useState(false);
  const [open, setOpen] = useState(false);
  const empty = html ? false : isEmptyCell(value);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!ellipsis || !el) return;
    const measure = () => setClamped(isClamped(el));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ellipsis, value, html]);

  const content = html ? <div dangerouslySetInnerHTML={{ __html: html }} /> : empty ? EMPTY_CELL : value;
  const shownLabel = labelText(label);
  const hasLabel = shownLabel !== null && shownLabel !== undefined && shownLabel !== false && shownLabel !== '';
  return (
    <div className="kit-label-value">
      {hasLabel && <div className="kit-label-value__label">{shownLabel}</div>}
      <div className="kit-label-value__body">
        <div ref={ref} className={ellipsis ? 'kit-label-value__value kit-label-value__value--clamp' : 'kit-label-value__value'}>
          {content}
        </div>
        {ellipsis && clamped && (
          <Button type="link" size="small" className="kit-label-value__more" onClick={() => setOpen(true)}>
            {t('kit.details')}
          </Button>
        )}
      </div>
      {open && (
        <AppDialog open title={hasLabel ? shownLabel : null} footer={null} onCancel={() => setOpen(false)}>
          <div className="kit-label-value__full">{content}</div>
        </AppDialog>
      )}
    </div>
  );
}
