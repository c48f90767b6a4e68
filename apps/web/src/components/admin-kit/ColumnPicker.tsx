import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Popover } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** A column the reader may show or hide: its id and its header. */
export interface PickableColumn {
  id: string;
  title: ReactNode;
}

const STORAGE_PREFIX = 'kit-columns:';

/**
 * Which optional columns are hidden, remembered per list in this browser (docs/rules/screens.md,
 * "Shared widgets"): a console at 1440 px shows the columns most readers need, the others one
 * click away. Only the reader's own choices are kept (column id -> shown); a column they never
 * chose follows its default, so columns that appear later (a rubric's criteria) start as declared.
 */
export function useHiddenColumns(listId: string | undefined, columns: readonly (PickableColumn & { hidden: boolean })[]): [ReadonlySet<string>, (hidden: string[]) => void] {
  const [chosen, setChosen] = useState<Readonly<Record<string, boolean>>>(() => {
    if (!listId) return {};
    try {
      const stored = JSON.parse(localStorage.getItem(STORAGE_PREFIX + listId) ?? '{}') as unknown;
      return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, boolean>) : {};
    } catch {
      // A damaged entry: the defaults.
      return {};
    }
  });
  const hidden = new Set(columns.filter((c) => !(chosen[c.id] ?? !c.hidden)).map((c) => c.id));
  const choose = (nextHidden: string[]) => {
    const next = { ...chosen, ...Object.fromEntries(columns.map((c) => [c.id, !nextHidden.includes(c.id)])) };
    setChosen(next);
    if (listId) localStorage.setItem(STORAGE_PREFIX + listId, JSON.stringify(next));
  };
  return [hidden, choose];
}

/** 列设置: a checkbox per optional column. */
export function ColumnPicker({ columns, hidden, onChange }: { columns: readonly PickableColumn[]; hidden: ReadonlySet<string>; onChange(hidden: string[]): void }) {
  const { t } = useTranslation('admin');
  const shown = columns.filter((c) => !hidden.has(c.id)).map((c) => c.id);
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('kit.columns')}
      content={
        <Checkbox.Group
          className="kit-column-picker"
          value={shown}
          onChange={(values) => onChange(columns.map((c) => c.id).filter((id) => !values.includes(id)))}
          options={columns.map((c) => ({ value: c.id, label: c.title }))}
          data-testid="kit-column-picker"
        />
      }
    >
      <Button icon={<SettingOutlined />} data-testid="kit-columns">
        {t('kit.columns')}
      </Button>
    </Popover>
  );
}
