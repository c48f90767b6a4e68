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

/** 0, 0.5, ... max. */
function choices(max: number): number[] {
  const out: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += STEP) out.push(Math.round(v * 2) / 2);
  return out;
}

/**
 * One criterion's points in 0.5 steps, for thumbs and keyboards alike: − and + (48 px targets)
 * around a native select (the phone's own picker wheel; arrow keys and typing on a keyboard).
 */
export function PointsStepper({ id, name, max, value, disabled, onChange }: PointsStepperProps) {
  const { t } = useTranslation('live');
  const step = (delta: number) => {
    const base = value ?? (delta > 0 ? -STEP : max + STEP);
    onChange(Math.min(max, Math.max(0, base + delta)));
  };
  return (
    <div className="live-stepper">
      <Button
        className="live-stepper__button"
        aria-label={t('judge.decrease', { name })}
        disabled={disabled || value === 0}
        onClick={() => step(-STEP)}
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
        disabled={disabled || value === max}
        onClick={() => step(STEP)}
      >
        +
      </Button>
    </div>
  );
}
