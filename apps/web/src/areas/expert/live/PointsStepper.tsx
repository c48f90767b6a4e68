import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

export interface PointsStepperProps {
  id: string;
  name: string;
  max: number;
  value: number | undefined;
  disabled: boolean;
  onChange(value: number | undefined): void;
}

const STEP = 0.5;

/**
 * The highest points the server takes for a criterion: the max, or below it the last 0.5 step
 * (isValidPoints in packages/shared: 0..max in 0.5 steps). Rubric maxima are whole numbers today;
 * a max of 7.3 would make 7 the top, never 7.3 (refused) nor 7.5 (over the max).
 */
export const topPoints = (max: number) => Math.floor(max / STEP + 1e-9) * STEP;

/** 0, 0.5, ... top. */
function choices(max: number): number[] {
  const out: number[] = [];
  for (let v = 0; v <= topPoints(max); v += STEP) out.push(v);
  return out;
}

/** One 0.5 step from `value` (empty: + gives 0, − the top), kept within 0..top; a value off the steps snaps onto them. */
function stepFrom(value: number | undefined, delta: 1 | -1, max: number): number {
  const top = topPoints(max);
  if (value === undefined) return delta > 0 ? 0 : top;
  const next = delta > 0 ? Math.floor(value / STEP + 1e-9) * STEP + STEP : Math.ceil(value / STEP - 1e-9) * STEP - STEP;
  return Math.min(top, Math.max(0, next));
}

/**
 * One criterion's points in 0.5 steps, for thumbs and keyboards alike: − and + (48 px targets)
 * around a native select (the phone's own picker wheel; arrow keys and typing on a keyboard).
 */
export function PointsStepper({ id, name, max, value, disabled, onChange }: PointsStepperProps) {
  const { t } = useTranslation('live');
  const step = (delta: 1 | -1) => onChange(stepFrom(value, delta, max));
  return (
    <div className="live-stepper">
      <Button
        className="live-stepper__button"
        aria-label={t('judge.decrease', { name })}
        disabled={disabled || (value !== undefined && value <= 0)}
        onClick={() => step(-1)}
      >
        −
      </Button>
      <select
        id={id}
        className="live-stepper__select"
        value={value === undefined ? '' : String(value)}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        data-testid={`points-${id}`}
      >
        <option value="">{t('judge.notScored')}</option>
        {choices(max).map((v) => (
          <option key={v} value={String(v)}>
            {v}
          </option>
        ))}
      </select>
      <Button
        className="live-stepper__button"
        aria-label={t('judge.increase', { name })}
        disabled={disabled || (value !== undefined && value >= topPoints(max))}
        onClick={() => step(1)}
      >
        +
      </Button>
    </div>
  );
}
