/**
 * Declared search forms: a list of `SearchField`s becomes the form's items, the list query and,
 * back from the query (a URL), the form's values again.
 */
import { DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATE_FORMATS } from '@contest/shared';
import { useDictOptions } from './kit-data';

export type SearchFieldKind = 'text' | 'select' | 'dict' | 'dateTimeRange' | 'dateRange' | 'month';

export interface SearchOption {
  value: string;
  /** An i18n key of the admin namespace, or text. */
  label: string;
}

export interface SearchField {
  /** The form field; for text/select/dict also the query field. */
  name: string;
  /** An i18n key of the admin namespace ('pages.fields.status', or 'ns:key'), or text. */
  label: string;
  kind: SearchFieldKind;
  /** kind 'dict': the dictionary type whose enabled items are the options. */
  dictType?: string;
  /** kind 'select': the options. */
  options?: readonly SearchOption[];
  /** Ranges: the query fields of the two ends (default `<name>From` / `<name>To`). */
  fromName?: string;
  toName?: string;
  /** An i18n key or text; 请输入 / 全部 by default. */
  placeholder?: string;
  /** Width of the control in px. */
  width?: number;
}

const isRange = (field: SearchField) => field.kind === 'dateTimeRange' || field.kind === 'dateRange';
const fromOf = (field: SearchField) => field.fromName ?? `${field.name}From`;
const toOf = (field: SearchField) => field.toName ?? `${field.name}To`;
const formatOf = (field: SearchField) => (field.kind === 'dateTimeRange' ? DATE_FORMATS.datetime : DATE_FORMATS.date);

/** The query fields the declaration writes (ranges write two). */
export function queryNamesOf(fields: readonly SearchField[]): string[] {
  return fields.flatMap((field) => (isRange(field) ? [fromOf(field), toOf(field)] : [field.name]));
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Form values -> query: texts trimmed, ranges split and formatted, blanks dropped. Undeclared values pass through. */
export function fieldsToQuery(fields: readonly SearchField[], values: Record<string, unknown>): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  const declared = new Set(fields.map((f) => f.name));
  for (const [key, value] of Object.entries(values)) {
    if (!declared.has(key) && !blank(value)) query[key] = value;
  }
  for (const field of fields) {
    const value = values[field.name];
    if (isRange(field)) {
      const pair = value as [Dayjs | null, Dayjs | null] | null | undefined;
      if (pair?.[0]) query[fromOf(field)] = pair[0].format(formatOf(field));
      if (pair?.[1]) query[toOf(field)] = pair[1].format(formatOf(field));
      continue;
    }
    if (blank(value)) continue;
    if (field.kind === 'month') {
      query[field.name] = dayjs.isDayjs(value) ? value.format(DATE_FORMATS.month) : String(value);
      continue;
    }
    query[field.name] = typeof value === 'string' ? value.trim() : value;
  }
  return query;
}

function parseDate(value: unknown): Dayjs | null {
  if (typeof value !== 'string' || value === '') return null;
  const d = dayjs(value);
  return d.isValid() ? d : null;
}

/** Query (e.g. read from the URL) -> form values of the declared fields. */
export function queryToFields(fields: readonly SearchField[], query: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (isRange(field)) {
      const from = parseDate(query[fromOf(field)]);
      const to = parseDate(query[toOf(field)]);
      values[field.name] = from || to ? [from, to] : undefined;
      continue;
    }
    const value = query[field.name];
    if (field.kind === 'month') {
      // Only a well-formed YYYY-MM becomes the picker's value (a hand-edited URL may hold anything).
      values[field.name] = typeof value === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(value) ? dayjs(`${value}-01`) : undefined;
      continue;
    }
    values[field.name] = blank(value) ? undefined : String(value);
  }
  return values;
}

/** Translates an admin key, or returns the text as given. */
export function useKitText(): (keyOrText: string) => string {
  const { t } = useTranslation('admin');
  const translate = t as unknown as (key: string, options: { defaultValue: string }) => string;
  return (keyOrText) => translate(keyOrText, { defaultValue: keyOrText });
}

/** The form items of a declaration (inside a SearchForm). */
export function SearchFields({ fields }: { fields: readonly SearchField[] }) {
  const { t } = useTranslation('admin');
  const text = useKitText();
  const dict = useDictOptions(fields.flatMap((f) => (f.kind === 'dict' && f.dictType ? [f.dictType] : [])));
  return (
    <>
      {fields.map((field) => {
        const label = text(field.label);
        const style = field.width ? { width: field.width } : undefined;
        let control;
        switch (field.kind) {
          case 'text':
            control = (
              <Input allowClear style={style} placeholder={field.placeholder ? text(field.placeholder) : t('pages.common.enterPlaceholder')} />
            );
            break;
          case 'select':
          case 'dict': {
            const options =
              field.kind === 'dict'
                ? (dict[field.dictType ?? ''] ?? [])
                : (field.options ?? []).map((o) => ({ value: o.value, label: text(o.label) }));
            control = (
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={style ?? { width: 160 }}
                placeholder={field.placeholder ? text(field.placeholder) : t('pages.common.all')}
                options={options}
              />
            );
            break;
          }
          case 'dateTimeRange':
            control = <DatePicker.RangePicker showTime allowEmpty={[true, true]} style={style} format={DATE_FORMATS.datetime} />;
            break;
          case 'dateRange':
            control = <DatePicker.RangePicker allowEmpty={[true, true]} style={style} format={DATE_FORMATS.date} />;
            break;
          case 'month':
            // The spec's month picker: YYYY-MM, sent as such.
            control = (
              <DatePicker
                picker="month"
                allowClear
                style={style ?? { width: 140 }}
                format={DATE_FORMATS.month}
                placeholder={field.placeholder ? text(field.placeholder) : t('pages.common.monthPlaceholder')}
              />
            );
            break;
        }
        return (
          <Form.Item key={field.name} name={field.name} label={label}>
            {control}
          </Form.Item>
        );
      })}
    </>
  );
}
