import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export function isOverCap(chars: number | null | undefined, max: number | null | undefined): boolean {
  return typeof chars === 'number' && typeof max === 'number' && chars > max;
}

/**
 * The application's counted characters against the cap (`prelim.maxApplicationChars`): `n / max`,
 * highlighted with how much over when above it; `n（未设上限）` without a cap; 未统计 when not counted.
 * `max` undefined (unknown here, e.g. a list row) shows the count alone.
 */
export function ApplicationChars({ chars, max, compact = false }: { chars: number | null; max: number | null | undefined; compact?: boolean }) {
  const { t } = useTranslation('admin');
  if (chars === null) return <Typography.Text type="secondary">{t('pages.prelim.chars.unknown')}</Typography.Text>;
  const over = isOverCap(chars, max);
  const text =
    max === undefined ? String(chars) : max === null ? t('pages.prelim.chars.noCap', { count: chars }) : t('pages.prelim.chars.value', { count: chars, max });
  return (
    <span className="prelim-chars" data-testid="application-chars" data-over={over}>
      <Typography.Text type={over ? 'danger' : undefined} strong={over}>
        {text}
      </Typography.Text>
      {over && !compact && typeof max === 'number' && (
        <Tag color="error" className="prelim-chars__tag">
          {t('pages.prelim.chars.overCap', { over: chars - max })}
        </Tag>
      )}
    </span>
  );
}
