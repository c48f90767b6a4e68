import { Button, Space, Tag } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, CloseOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TIE_BREAKS, type TieBreak } from '@contest/shared';

export interface TieBreakChainProps {
  id?: string;
  value?: TieBreak[];
  onChange?(value: TieBreak[]): void;
  disabled?: boolean;
}

/** The tie-break steps in the order they are compared: move up, down, take out, add back. */
export function TieBreakChain({ id, value = [], onChange, disabled }: TieBreakChainProps) {
  const { t } = useTranslation('review');
  const set = (next: TieBreak[]) => onChange?.(next);
  const swap = (i: number, j: number) => {
    const next = [...value];
    [next[i], next[j]] = [next[j]!, next[i]!];
    set(next);
  };
  const rest = TIE_BREAKS.filter((step) => !value.includes(step));
  return (
    <div id={id} className="review-chain" data-testid="tie-break-chain">
      <ol className="review-chain__list">
        {value.map((step, i) => {
          const name = t(`tieBreaks.${step}`);
          return (
            <li key={step} className="review-chain__step" data-testid="tie-break-step">
              <span className="review-chain__name">
                {i + 1}. {name}
              </span>
              <Space size={0}>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  disabled={disabled || i === 0}
                  onClick={() => swap(i, i - 1)}
                  aria-label={t('rubric.moveUpOf', { name })}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  disabled={disabled || i === value.length - 1}
                  onClick={() => swap(i, i + 1)}
                  aria-label={t('rubric.moveDownOf', { name })}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  disabled={disabled}
                  onClick={() => set(value.filter((s) => s !== step))}
                  aria-label={t('rubric.removeOf', { name })}
                />
              </Space>
            </li>
          );
        })}
      </ol>
      {value.length === 0 && <Tag>{t('rule.noChain')}</Tag>}
      {rest.length > 0 && !disabled && (
        <Space size={4} wrap>
          {rest.map((step) => (
            <Button key={step} size="small" icon={<PlusOutlined />} onClick={() => set([...value, step])}>
              {t(`tieBreaks.${step}`)}
            </Button>
          ))}
        </Space>
      )}
    </div>
  );
}
