import { useEffect, useMemo, useRef, useState } from 'react';
import { Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PRELIM_DOC_STATUSES, RESULT_SEGMENT_VALUES, SEGMENT_ACCOUNTS_MAX, SEGMENT_KINDS, TEAM_STATUSES, type Segment, type SegmentKind } from '@contest/shared';
import { useDictOptions } from '../../../components/admin-kit';
import { labelOf, useDictLabels } from '../../../components/contest';
import { MESSAGING_QUERY_KEYS, searchAccounts } from './messaging-api';

export const TRACK_DICT = 'TRACK';

/** The picker's value: a segment being chosen (values may still be empty). */
export interface SegmentValue {
  kind: SegmentKind;
  values: string[];
}

export const EMPTY_SEGMENT: SegmentValue = { kind: 'ALL', values: [] };

/** Kinds that name everyone of the kind, without values. */
const WITHOUT_VALUES: readonly SegmentKind[] = ['ALL', 'FINALIST'];

/** A segment is complete when it names everyone of its kind or at least one value. */
export const segmentComplete = (value: SegmentValue | undefined) => !!value && (WITHOUT_VALUES.includes(value.kind) || value.values.length > 0);

/** i18n key of a RESULT value (`FINAL:AWARDED`): i18next reads ':' as a namespace separator. */
const resultKey = (value: string) => `segment.result.${value.replace(':', '_')}` as 'segment.result.FINAL_AWARDED';

/** The segment in words, in the page's language (the server's `segmentText` is Chinese). */
export function useSegmentText(): (segment: Segment | SegmentValue) => string {
  const { t } = useTranslation('messaging');
  const labels = useDictLabels([TRACK_DICT]).data;
  return (segment) => {
    const join = (names: string[]) => names.join(t('segment.separator'));
    switch (segment.kind) {
      case 'ALL':
        return t('segment.text.ALL');
      case 'TEAM_STATUS':
        return t('segment.text.TEAM_STATUS', { values: join(segment.values.map((v) => t(`segment.teamStatus.${v}` as 'segment.teamStatus.DRAFT'))) });
      case 'PRELIM_STATUS':
        return t('segment.text.PRELIM_STATUS', { values: join(segment.values.map((v) => t(`segment.prelimStatus.${v}` as 'segment.prelimStatus.DRAFT'))) });
      case 'TRACK':
        return t('segment.text.TRACK', { values: join(segment.values.map((v) => labelOf(labels, TRACK_DICT, v))) });
      case 'FINALIST':
        return t('segment.text.FINALIST');
      case 'RESULT':
        return t('segment.text.RESULT', { values: join(segment.values.map((v) => t(resultKey(v)))) });
      case 'ACCOUNTS':
        return t('segment.text.ACCOUNTS', { count: segment.values.length });
    }
  };
}

/** Waits for typing to pause before searching. */
function useDebounced<T>(value: T, ms = 300): T {
  const [out, setOut] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setOut(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return out;
}

function AccountsSelect({ value, onChange, id }: { value: string[]; onChange(values: string[]): void; id?: string }) {
  const { t } = useTranslation('messaging');
  const [keyword, setKeyword] = useState('');
  const debounced = useDebounced(keyword.trim());
  // Chosen accounts keep their names while the search shows others.
  const names = useRef(new Map<string, string>());
  const { data, isFetching } = useQuery({
    queryKey: MESSAGING_QUERY_KEYS.accounts(debounced),
    queryFn: () => searchAccounts(debounced),
    staleTime: 30_000,
  });
  const found = data?.list ?? [];
  for (const a of found) {
    const name = a.name && a.name !== a.username ? `${a.name}（${a.username}）` : a.username;
    names.current.set(a.id, [name, a.phone, a.teamName ?? t('segment.noTeam')].filter(Boolean).join(' · '));
  }
  const options = useMemo(() => {
    const ids = [...new Set([...value, ...found.map((a) => a.id)])];
    return ids.map((id) => ({ value: id, label: names.current.get(id) ?? id }));
  }, [value, found]);

  return (
    <Select
      id={id}
      mode="multiple"
      showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
      value={value}
      onChange={(next: string[]) => {
        onChange(next.slice(0, SEGMENT_ACCOUNTS_MAX));
        setKeyword('');
      }}
      options={options}
      loading={isFetching}
      placeholder={t('segment.accountsPlaceholder')}
      aria-label={t('segment.values')}
      maxTagCount="responsive"
      style={{ width: '100%' }}
      data-testid="segment-accounts"
    />
  );
}

export interface SegmentPickerProps {
  value?: SegmentValue;
  onChange?(value: SegmentValue): void;
  id?: string;
}

/**
 * Who receives a bulk send (docs/rules/content.md, "Bulk sends"): everyone, by sign-up status, by materials status
 * (未填写 = approved without materials), by track, the finalists, by published result (初赛晋级, 决赛获奖, ...),
 * or chosen accounts.
 */
export function SegmentPicker({ value = EMPTY_SEGMENT, onChange, id }: SegmentPickerProps) {
  const { t } = useTranslation('messaging');
  const tracks = useDictOptions([TRACK_DICT])[TRACK_DICT] ?? [];
  const set = (next: Partial<SegmentValue>) => onChange?.({ ...value, ...next });

  const statusOptions =
    value.kind === 'TEAM_STATUS'
      ? TEAM_STATUSES.map((s) => ({ value: s, label: t(`segment.teamStatus.${s}`) }))
      : PRELIM_DOC_STATUSES.map((s) => ({ value: s, label: t(`segment.prelimStatus.${s}`) }));

  return (
    <Space orientation="vertical" style={{ width: '100%' }} className="messaging-segment" data-testid="segment-picker">
      <Select
        id={id}
        value={value.kind}
        onChange={(kind: SegmentKind) => set({ kind, values: [] })}
        options={SEGMENT_KINDS.map((kind) => ({ value: kind, label: t(`segment.kinds.${kind}`) }))}
        aria-label={t('segment.kind')}
        style={{ width: '100%' }}
        data-testid="segment-kind"
      />
      {(value.kind === 'TEAM_STATUS' || value.kind === 'PRELIM_STATUS') && (
        <Select
          mode="multiple"
          value={value.values}
          onChange={(values: string[]) => set({ values })}
          options={statusOptions}
          placeholder={t('segment.statusPlaceholder')}
          aria-label={t('segment.values')}
          style={{ width: '100%' }}
          data-testid="segment-values"
        />
      )}
      {value.kind === 'TRACK' && (
        <Select
          mode="multiple"
          value={value.values}
          onChange={(values: string[]) => set({ values })}
          options={tracks}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('segment.trackPlaceholder')}
          aria-label={t('segment.values')}
          style={{ width: '100%' }}
          data-testid="segment-values"
        />
      )}
      {value.kind === 'RESULT' && (
        <Select
          mode="multiple"
          value={value.values}
          onChange={(values: string[]) => set({ values })}
          options={RESULT_SEGMENT_VALUES.map((v) => ({ value: v, label: t(resultKey(v)) }))}
          placeholder={t('segment.resultPlaceholder')}
          aria-label={t('segment.values')}
          style={{ width: '100%' }}
          data-testid="segment-values"
        />
      )}
      {value.kind === 'ACCOUNTS' && (
        <>
          <AccountsSelect value={value.values} onChange={(values) => set({ values })} />
          <Typography.Text type="secondary">{t('segment.accountsHint')}</Typography.Text>
        </>
      )}
    </Space>
  );
}
