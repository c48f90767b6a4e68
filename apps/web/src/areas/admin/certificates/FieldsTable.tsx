/**
 * The placed fields as numbers (docs/certificates.md, "Templates"): what each prints, its left and
 * top edges and width in percent of the page, font size in points, alignment, weight and colour.
 * Every value has its own labelled input, so the layout can be made without a mouse; the page
 * preview follows as one types.
 */
import { useState } from 'react';
import { Button, Checkbox, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  CERTIFICATE_ALIGNS,
  CERTIFICATE_FIELDS_MAX,
  CERTIFICATE_FONT_SIZE_MAX,
  CERTIFICATE_FONT_SIZE_MIN,
  CERTIFICATE_TEXT_MAX,
  type CertificateFieldKey,
} from '@contest/shared';
import { fromPercent, toPercent, type FieldDraft } from './template-draft';

export interface FieldsTableProps {
  fields: readonly FieldDraft[];
  keys: readonly CertificateFieldKey[];
  selected: string | null;
  onSelect(uid: string): void;
  onChange(uid: string, patch: Partial<FieldDraft>): void;
  onAdd(key: CertificateFieldKey): void;
  onRemove(uid: string): void;
  disabled?: boolean;
}

type FieldColumn = 'key' | 'text' | 'x' | 'y' | 'width' | 'fontSize' | 'align' | 'bold' | 'color';

export function FieldsTable({ fields, keys, selected, onSelect, onChange, onAdd, onRemove, disabled = false }: FieldsTableProps) {
  const { t } = useTranslation('certificates');
  const [adding, setAdding] = useState<CertificateFieldKey | undefined>(undefined);
  const hasQr = fields.some((f) => f.key === 'qr');
  const addable = keys.filter((k) => k !== 'qr' || !hasQr);
  const column = (name: FieldColumn) => t(`editor.fieldColumns.${name}`);
  const labelOf = (f: FieldDraft, name: FieldColumn) => t('editor.fieldInput', { field: t(`field.${f.key}`), column: column(name) });
  const percentInput = (f: FieldDraft, index: number, name: 'x' | 'y' | 'width') => (
    <InputNumber
      size="small"
      min={name === 'width' ? 0.5 : 0}
      max={100}
      step={0.5}
      precision={1}
      value={toPercent(f[name])}
      disabled={disabled}
      onChange={(v) => {
        if (typeof v !== 'number') return;
        const patch: Partial<FieldDraft> = {};
        patch[name] = fromPercent(v);
        onChange(f.uid, patch);
      }}
      onFocus={() => onSelect(f.uid)}
      aria-label={labelOf(f, name)}
      className="cert-fields__number"
      data-testid={`field-${name}-${index}`}
    />
  );

  return (
    <div className="cert-fields" data-testid="cert-fields">
      <Table<FieldDraft>
        size="small"
        rowKey="uid"
        pagination={false}
        dataSource={[...fields]}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('editor.noFields') }}
        rowClassName={(f) => (f.uid === selected ? 'cert-fields__row--selected' : '')}
        onRow={(f) => ({ onClick: () => onSelect(f.uid) })}
        columns={[
          {
            title: column('key'),
            key: 'key',
            render: (_, f, index) => (
              <Select<CertificateFieldKey>
                size="small"
                value={f.key}
                disabled={disabled}
                onChange={(key) => onChange(f.uid, { key, ...(key === 'qr' ? { width: Math.min(f.width, 0.2) } : {}) })}
                options={keys.filter((k) => k !== 'qr' || !hasQr || f.key === 'qr').map((k) => ({ value: k, label: t(`field.${k}`) }))}
                aria-label={labelOf(f, 'key')}
                popupMatchSelectWidth={false}
                // A dozen options: all of them in the list (a virtual list leaves the last ones out of the page).
                virtual={false}
                className="cert-fields__key"
                data-testid={`field-key-${index}`}
              />
            ),
          },
          {
            title: column('text'),
            key: 'text',
            render: (_, f, index) =>
              f.key === 'text' ? (
                <Input
                  size="small"
                  value={f.text}
                  maxLength={CERTIFICATE_TEXT_MAX}
                  disabled={disabled}
                  placeholder={t('editor.textPlaceholder')}
                  onChange={(e) => onChange(f.uid, { text: e.target.value })}
                  aria-label={labelOf(f, 'text')}
                  className="cert-fields__text"
                  data-testid={`field-text-${index}`}
                />
              ) : (
                <Typography.Text type="secondary">--</Typography.Text>
              ),
          },
          { title: column('x'), key: 'x', render: (_, f, index) => percentInput(f, index, 'x') },
          { title: column('y'), key: 'y', render: (_, f, index) => percentInput(f, index, 'y') },
          { title: column('width'), key: 'width', render: (_, f, index) => percentInput(f, index, 'width') },
          {
            title: column('fontSize'),
            key: 'fontSize',
            render: (_, f, index) => (
              <InputNumber
                size="small"
                min={CERTIFICATE_FONT_SIZE_MIN}
                max={CERTIFICATE_FONT_SIZE_MAX}
                step={1}
                value={f.fontSize}
                disabled={disabled || f.key === 'qr'}
                onChange={(v) => {
                  if (typeof v === 'number') onChange(f.uid, { fontSize: v });
                }}
                aria-label={labelOf(f, 'fontSize')}
                className="cert-fields__number"
                data-testid={`field-fontSize-${index}`}
              />
            ),
          },
          {
            title: column('align'),
            key: 'align',
            render: (_, f, index) => (
              <Select
                size="small"
                value={f.align}
                disabled={disabled || f.key === 'qr'}
                onChange={(align) => onChange(f.uid, { align })}
                options={CERTIFICATE_ALIGNS.map((a) => ({ value: a, label: t(`align.${a}`) }))}
                aria-label={labelOf(f, 'align')}
                popupMatchSelectWidth={false}
                data-testid={`field-align-${index}`}
              />
            ),
          },
          {
            title: column('bold'),
            key: 'bold',
            render: (_, f, index) => (
              <Checkbox
                checked={f.bold}
                disabled={disabled || f.key === 'qr'}
                onChange={(e) => onChange(f.uid, { bold: e.target.checked })}
                aria-label={labelOf(f, 'bold')}
                data-testid={`field-bold-${index}`}
              />
            ),
          },
          {
            title: column('color'),
            key: 'color',
            render: (_, f, index) => (
              <input
                type="color"
                className="cert-fields__color"
                value={f.color}
                disabled={disabled || f.key === 'qr'}
                onChange={(e) => onChange(f.uid, { color: e.target.value })}
                aria-label={labelOf(f, 'color')}
                data-testid={`field-color-${index}`}
              />
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, f) => (
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                disabled={disabled}
                onClick={() => onRemove(f.uid)}
                aria-label={t('editor.removeField', { name: t(`field.${f.key}`) })}
                data-testid="field-remove"
              />
            ),
          },
        ]}
      />
      {!disabled && (
        <Space wrap className="cert-fields__add">
          <Select<CertificateFieldKey>
            value={adding}
            onChange={setAdding}
            placeholder={t('editor.addFieldPlaceholder')}
            options={addable.map((k) => ({ value: k, label: t(`field.${k}`) }))}
            aria-label={t('editor.addField')}
            virtual={false}
            className="cert-fields__add-select"
            data-testid="field-add-key"
          />
          <Button
            icon={<PlusOutlined />}
            disabled={!adding || fields.length >= CERTIFICATE_FIELDS_MAX}
            onClick={() => {
              if (!adding) return;
              onAdd(adding);
              setAdding(undefined);
            }}
            data-testid="field-add"
          >
            {t('editor.addField')}
          </Button>
        </Space>
      )}
    </div>
  );
}
