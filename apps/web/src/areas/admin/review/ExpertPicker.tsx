import { useEffect, useMemo, useState } from 'react';
import { Select, Space, Tag, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ExpertRow, GroupExpert, ReviewRound } from '@contest/shared';
import { ApiError } from '../../../api';
import { labelOf, useDictLabels } from '../../../components/contest';
import { REVIEW_QUERY_KEYS, fetchExpertOptions } from './review-api';
import { TRACK_DICT } from './round';

/** An expert as the picker knows it: from the 专家库 search, or from the group being edited. */
type Known = Pick<ExpertRow, 'id' | 'code' | 'name' | 'organization' | 'tracks' | 'enabled'> & { groupName: string | null };

interface Option {
  value: string;
  label: string;
  disabled: boolean;
  expert: Known | null;
  /** Why it cannot be chosen, or a note (its group) when it can. */
  why: string | null;
}

export interface ExpertPickerProps {
  id?: string;
  round: ReviewRound;
  value?: string[];
  onChange?(value: string[]): void;
  /** Experts already chosen (their names show before any search). */
  initial?: readonly GroupExpert[];
  /** The group being edited: its own experts are not "in another group". */
  currentGroup?: string | null;
  /** Experts that cannot be chosen here, with why (already reviewing the project...). */
  unavailable?: ReadonlyMap<string, string>;
  max?: number;
  placeholder?: string;
  /** One group per expert per round (groups): an expert of another group cannot be chosen. Off: only shown. */
  exclusive?: boolean;
}

const SEARCH_DELAY_MS = 300;

/**
 * Chooses experts from 专家库 by code, name, phone or organisation (searched on the server).
 * Each option shows code, name, organisation and tracks; an expert in another group of the round,
 * disabled, or otherwise unavailable is shown with why and cannot be chosen.
 */
export function ExpertPicker({ id, round, value = [], onChange, initial = [], currentGroup = null, unavailable, max, placeholder, exclusive = true }: ExpertPickerProps) {
  const { t } = useTranslation('review');
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const result = useQuery({
    queryKey: REVIEW_QUERY_KEYS.expertOptions(keyword),
    queryFn: () => fetchExpertOptions(keyword ? { keyword } : {}),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const labels = useDictLabels([TRACK_DICT]);

  // Everyone seen so far, so chosen experts keep their names while the search shows others.
  const [seen, setSeen] = useState<ReadonlyMap<string, Known>>(() => new Map());
  useEffect(() => {
    const rows = result.data?.list;
    if (!rows?.length) return;
    setSeen((old) => {
      const next = new Map(old);
      for (const row of rows) next.set(row.id, { ...row, groupName: row.groups[round] });
      return next;
    });
  }, [result.data, round]);

  const known = useMemo(() => {
    const map = new Map<string, Known>();
    for (const e of initial) map.set(e.id, { ...e, groupName: currentGroup });
    for (const [key, e] of seen) map.set(key, e);
    return map;
  }, [initial, seen, currentGroup]);

  const whyNot = (e: Known): string | null => {
    if (value.includes(e.id)) return null;
    const other = unavailable?.get(e.id);
    if (other) return other;
    if (!e.enabled) return t('experts.disabled');
    if (exclusive && e.groupName && e.groupName !== currentGroup) return t('experts.inGroup', { name: e.groupName });
    if (max !== undefined && value.length >= max) return t('experts.tooMany', { max });
    return null;
  };
  /** Shown beside a choosable expert: which group they review in. */
  const note = (e: Known): string | null => (!exclusive && e.groupName ? t('experts.groupOf', { name: e.groupName }) : null);

  const listed = result.data?.list.map((row) => row.id) ?? [];
  const ids = [...value.filter((v) => !listed.includes(v)), ...listed];
  const options = ids.map((key): Option => {
    const e = known.get(key);
    if (!e) return { value: key, label: key, disabled: false, expert: null, why: null };
    const why = whyNot(e);
    return { value: key, label: `${e.code} ${e.name}`, disabled: why !== null, expert: e, why: why ?? note(e) };
  });

  return (
    <Select<string[]>
      id={id}
      mode="multiple"
      value={value}
      onChange={(next) => onChange?.(next)}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={result.isFetching}
      placeholder={placeholder ?? t('experts.searchPlaceholder')}
      notFoundContent={
        result.isError
          ? result.error instanceof ApiError && result.error.status === 403
            ? t('experts.noAccess')
            : t('experts.loadFailed')
          : t('experts.none')
      }
      options={options}
      optionRender={(option) => {
        const { expert, why, disabled } = option.data as Option;
        if (!expert) return option.label;
        return (
          <div className="review-expert-option" data-testid="expert-option">
            <Space size={4} wrap>
              <strong>{expert.code}</strong>
              <span>{expert.name}</span>
              {why && <Tag color={disabled ? 'default' : 'blue'}>{why}</Tag>}
            </Space>
            <Typography.Text type="secondary" className="review-expert-option__meta">
              {expert.organization}
              {expert.tracks.length > 0 && ` · ${expert.tracks.map((c: string) => labelOf(labels.data, TRACK_DICT, c)).join('、')}`}
            </Typography.Text>
          </div>
        );
      }}
      style={{ width: '100%' }}
      data-testid="expert-picker"
    />
  );
}
