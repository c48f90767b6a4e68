import { Tag } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { periodLeft } from './period';

export interface PeriodCountdownProps {
  /** When the period (or window) ends. */
  endsAt: string;
  /** The server's time now (useServerClock). */
  now: number;
  'data-testid'?: string;
}

/** 剩余 3 天 5 小时 / 剩余 4 小时 12 分钟 / 已结束: what is left of a 公示 period or an appeal window. */
export function PeriodCountdown({ endsAt, now, 'data-testid': testId = 'period-countdown' }: PeriodCountdownProps) {
  const { t } = useTranslation('results');
  const left = periodLeft(endsAt, now);
  const text = left.ended
    ? t('countdown.ended')
    : left.days > 0
      ? t('countdown.days', { days: left.days, hours: left.hours })
      : left.hours > 0
        ? t('countdown.hours', { hours: left.hours, minutes: left.minutes })
        : t('countdown.minutes', { minutes: Math.max(1, left.minutes) });
  return (
    <Tag icon={<ClockCircleOutlined />} color={left.ended ? 'default' : left.days > 0 ? 'blue' : 'orange'} data-testid={testId} data-ended={left.ended}>
      {text}
    </Tag>
  );
}
