import { Button, Input, InputNumber, Radio, Space, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { AWARD_LEVELS_MAX, AWARD_MODES, awardRuleSchema, type AwardMode, type AwardRule, type AwardRuleInput } from '@contest/shared';
import { useResultsMessage } from '../../../components/results';

export interface AwardLevelDraft {
  /** React key only. */
  key: string;
  name: string;
  count: number | null;
  minScore: number | null;
}

export interface AwardsDraft {
  mode: AwardMode;
  levels: AwardLevelDraft[];
}

let nextKey = 0;
const newKey = () => `level-${(nextKey += 1)}`;

export const emptyLevel = (name = ''): AwardLevelDraft => ({ key: newKey(), name, count: null, minScore: null });

/** A draft from the levels a version was published with (a new version starts from them). */
export function draftOf(rule: AwardRule | null, defaultNames: readonly string[]): AwardsDraft {
  if (!rule) return { mode: 'RANK_COUNTS', levels: defaultNames.map((n) => emptyLevel(n)) };
  return { mode: rule.mode, levels: rule.levels.map((l) => ({ key: newKey(), name: l.name, count: l.count, minScore: l.minScore })) };
}

/** The request's awards: only the field the mode reads is sent. */
export function ruleOf(draft: AwardsDraft): AwardRuleInput {
  return {
    mode: draft.mode,
    levels: draft.levels.map((l) =>
      draft.mode === 'RANK_COUNTS' ? { name: l.name.trim(), count: l.count } : { name: l.name.trim(), minScore: l.minScore },
    ),
  };
}

export interface AwardsCheck {
  /** The awards as sent, when the draft passes the shared schema. */
  rule: AwardRuleInput | null;
  /** `${index}.${field}` -> message, for the level rows. */
  fields: Map<string, string>;
  /** A message about the whole list (none, too many). */
  general: string | null;
}

/** The shared schema's verdict (the server's own rules and texts). */
export function checkAwards(draft: AwardsDraft): AwardsCheck {
  const rule = ruleOf(draft);
  const parsed = awardRuleSchema.safeParse(rule);
  if (parsed.success) return { rule, fields: new Map(), general: null };
  const fields = new Map<string, string>();
  let general: string | null = null;
  for (const issue of parsed.error.issues) {
    const [head, index, field] = issue.path;
    if (head === 'levels' && typeof index === 'number' && typeof field === 'string') {
      if (!fields.has(`${index}.${field}`)) fields.set(`${index}.${field}`, issue.message);
    } else general ??= issue.message;
  }
  return { rule: null, fields, general };
}

export interface AwardsEditorProps {
  value: AwardsDraft;
  onChange(next: AwardsDraft): void;
  /** Show the schema's messages (after the first preview attempt). */
  showErrors: boolean;
  disabled?: boolean;
}

/**
 * The final's award levels (docs/rules/results.md, "Publication"): by rank (each level a number of places; the last may
 * leave it empty for every other ranked project) or by score bands (each level a minimum rule
 * score, highest first). Levels are named, added, removed and moved up and down; the checks are
 * the shared schema's, so the page refuses exactly what the server would.
 */
export function AwardsEditor({ value, onChange, showErrors, disabled = false }: AwardsEditorProps) {
  const { t } = useTranslation('results');
  const translate = useResultsMessage();
  const check = checkAwards(value);
  const { mode, levels } = value;

  const setLevel = (index: number, patch: Partial<AwardLevelDraft>) =>
    onChange({ mode, levels: levels.map((l, i) => (i === index ? { ...l, ...patch } : l)) });
  const move = (index: number, by: -1 | 1) => {
    const next = [...levels];
    const [level] = next.splice(index, 1);
    next.splice(index + by, 0, level!);
    onChange({ mode, levels: next });
  };
  const errorOf = (index: number, field: string) => (showErrors ? check.fields.get(`${index}.${field}`) : undefined);

  return (
    <div className="results-awards" data-testid="awards-editor">
      <Radio.Group
        value={mode}
        disabled={disabled}
        onChange={(e) => onChange({ mode: e.target.value as AwardMode, levels })}
        options={AWARD_MODES.map((m) => ({ value: m, label: t(`awards.modes.${m}`) }))}
        data-testid="awards-mode"
      />
      <Typography.Paragraph type="secondary" className="results-awards__hint">
        {t(`awards.hints.${mode}`)}
      </Typography.Paragraph>
      <ol className="results-awards__levels">
        {levels.map((level, index) => {
          const nameError = errorOf(index, 'name');
          const valueError = errorOf(index, mode === 'RANK_COUNTS' ? 'count' : 'minScore');
          const n = index + 1;
          return (
            <li key={level.key} className="results-awards__level" data-testid="award-level">
              <div className="results-awards__row">
                <span className="results-awards__index">{t('awards.levelN', { n })}</span>
                <Input
                  value={level.name}
                  disabled={disabled}
                  maxLength={40}
                  status={nameError ? 'error' : undefined}
                  placeholder={t('awards.namePlaceholder')}
                  aria-label={t('awards.nameOf', { n })}
                  onChange={(e) => setLevel(index, { name: e.target.value })}
                  className="results-awards__name"
                />
                {mode === 'RANK_COUNTS' ? (
                  <InputNumber<number>
                    value={level.count}
                    disabled={disabled}
                    min={1}
                    max={1000}
                    precision={0}
                    status={valueError ? 'error' : undefined}
                    placeholder={index === levels.length - 1 ? t('awards.countRest') : t('awards.countPlaceholder')}
                    aria-label={t('awards.countOf', { n })}
                    onChange={(v) => setLevel(index, { count: typeof v === 'number' ? v : null })}
                    className="results-awards__number"
                  />
                ) : (
                  <InputNumber<number>
                    value={level.minScore}
                    disabled={disabled}
                    min={0}
                    max={100}
                    step={0.5}
                    status={valueError ? 'error' : undefined}
                    placeholder={t('awards.minScorePlaceholder')}
                    aria-label={t('awards.minScoreOf', { n })}
                    onChange={(v) => setLevel(index, { minScore: typeof v === 'number' ? v : null })}
                    className="results-awards__number"
                  />
                )}
                <Space size={0}>
                  <Button type="text" size="small" icon={<ArrowUpOutlined />} disabled={disabled || index === 0} aria-label={t('awards.moveUp', { n })} onClick={() => move(index, -1)} />
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    disabled={disabled || index === levels.length - 1}
                    aria-label={t('awards.moveDown', { n })}
                    onClick={() => move(index, 1)}
                  />
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={disabled || levels.length <= 1}
                    aria-label={t('awards.remove', { n })}
                    onClick={() => onChange({ mode, levels: levels.filter((_, i) => i !== index) })}
                  />
                </Space>
              </div>
              {(nameError || valueError) && (
                <div className="results-awards__error" role="alert" data-testid="award-level-error">
                  {[nameError, valueError].filter(Boolean).map((m) => translate(m)).join('；')}
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <Button
        icon={<PlusOutlined />}
        disabled={disabled || levels.length >= AWARD_LEVELS_MAX}
        onClick={() => onChange({ mode, levels: [...levels, emptyLevel()] })}
        data-testid="award-add"
      >
        {t('awards.add')}
      </Button>
      {showErrors && check.general && (
        <div className="results-awards__error" role="alert" data-testid="awards-error">
          {translate(check.general)}
        </div>
      )}
    </div>
  );
}
