import { useTranslation } from 'react-i18next';
import type { CalibrationView } from '@contest/shared';
import { signed1 } from './quality-common';

/**
 * Leniency per expert as horizontal bars around zero, with the panel's mean ± factor·sd band
 * shaded (docs/rules/judging-quality.md, "Calibration"): a bar reaching out of the band is a
 * flagged expert. Plain HTML and CSS (no chart library in apps/web); the figures are text, so a
 * screen reader reads the same as the table.
 */
export function LeniencyChart({ view }: { view: CalibrationView }) {
  const { t } = useTranslation('review');
  const rows = view.experts.filter((e) => e.leniency !== null);
  const { leniencyMean: mean, leniencySd: sd } = view.panel;
  const band = mean !== null && sd !== null ? { low: mean - view.leniencyFactor * sd, high: mean + view.leniencyFactor * sd } : null;
  // Symmetric scale around 0, wide enough for every bar and the band, never narrower than 1 point.
  const extent = Math.max(1, ...rows.map((e) => Math.abs(e.leniency ?? 0)), band ? Math.abs(band.low) : 0, band ? Math.abs(band.high) : 0) * 1.1;
  const at = (v: number) => ((v + extent) / (2 * extent)) * 100;
  if (rows.length === 0) return null;
  return (
    <figure className="quality-chart" data-testid="leniency-chart">
      <figcaption className="quality-chart__caption">
        {t('quality.calibration.chartCaption', { factor: view.leniencyFactor })}
      </figcaption>
      <div className="quality-chart__rows">
        {band && (
          <div className="quality-chart__overlay" aria-hidden>
            <div className="quality-chart__band" style={{ left: `${at(band.low)}%`, width: `${at(band.high) - at(band.low)}%` }} />
          </div>
        )}
        {rows.map((e) => {
          const v = e.leniency ?? 0;
          const flagged = e.flags.includes('LENIENT') ? 'lenient' : e.flags.includes('HARSH') ? 'harsh' : 'normal';
          const from = Math.min(at(0), at(v));
          const width = Math.abs(at(v) - at(0));
          return (
            <div className="quality-chart__row" key={e.expertId} data-testid="leniency-bar">
              <span className="quality-chart__label" title={e.name}>
                {e.code} {e.name}
              </span>
              <span className="quality-chart__track">
                <span className="quality-chart__zero" aria-hidden />
                <span className={`quality-chart__bar quality-chart__bar--${flagged}`} style={{ left: `${from}%`, width: `${Math.max(width, 0.5)}%` }} aria-hidden />
              </span>
              <span className={`quality-chart__value quality-chart__value--${flagged}`}>{signed1(v)}</span>
            </div>
          );
        })}
      </div>
      <div className="quality-chart__legend" aria-hidden>
        <span className="quality-chart__swatch quality-chart__swatch--band" /> {t('quality.calibration.band', { factor: view.leniencyFactor })}
        <span className="quality-chart__swatch quality-chart__swatch--lenient" /> {t('quality.flags.LENIENT')}
        <span className="quality-chart__swatch quality-chart__swatch--harsh" /> {t('quality.flags.HARSH')}
      </div>
    </figure>
  );
}
