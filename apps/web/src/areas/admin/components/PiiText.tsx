import type { ReactNode } from 'react';
import { Button, Tooltip } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PII_VIEW_BUTTON, isMaskedPii, type PiiKind } from '@contest/shared';
import { usePermission } from '../../../lib/permission';
import { ADMIN_QUERY_KEYS, fetchPii } from '../admin-api';
import './pii-text.css';

/**
 * One record's personal information in full, read on demand (docs/rules/admin.md, "Personal information"). The server
 * records every read, so nothing asks before the eye is clicked; the values are dropped as soon
 * as no view of the record shows them (gcTime 0), and never refetched on their own.
 */
export function usePiiReveal(kind: PiiKind, id: string) {
  const query = useQuery({
    queryKey: ADMIN_QUERY_KEYS.pii(kind, id),
    queryFn: () => fetchPii(kind, id),
    enabled: false,
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });
  return { values: query.data?.values ?? null, reveal: () => void query.refetch(), pending: query.isFetching };
}

export interface PiiTextProps {
  kind: PiiKind;
  /** The record's id (the reveal call reads the whole record: every masked value of it shows in full). */
  id: string;
  /** Where the value sits in the record's answer: `phone`, `leader.phone`, `members.0.email`… */
  path: string;
  /** The masked value as the answer carries it. */
  value: string;
}

/**
 * A masked phone, e-mail, credit code or contact, with an eye for operators whose role holds
 * pii:view: one click shows the record's values in full (every field of it that is on screen).
 */
export function PiiText({ kind, id, path, value }: PiiTextProps) {
  const { t } = useTranslation('admin');
  const can = usePermission();
  const { values, reveal, pending } = usePiiReveal(kind, id);
  const full = values?.[path];
  const shown = full ?? value;
  const canReveal = !values && isMaskedPii(value) && can({ codes: [PII_VIEW_BUTTON] });
  return (
    <span className="pii-text" data-testid="pii-text" data-revealed={full !== undefined ? 'true' : 'false'}>
      <span className="pii-text__value">{shown}</span>
      {canReveal && (
        <Tooltip title={t('pii.revealHint')}>
          <Button
            type="link"
            size="small"
            className="pii-text__reveal"
            icon={<EyeOutlined />}
            loading={pending}
            aria-label={t('pii.reveal')}
            onClick={(event) => {
              // Inside a clickable row or card, the eye only reveals.
              event.stopPropagation();
              reveal();
            }}
          />
        </Tooltip>
      )}
    </span>
  );
}

/**
 * `value` as PiiText, or as it is when empty (null, '': the label/value item and the table cell
 * keep their '--' placeholder, which a component in their place would hide).
 */
export function piiValue(kind: PiiKind, id: string, path: string, value: string | null | undefined): ReactNode {
  return value ? <PiiText kind={kind} id={id} path={path} value={value} /> : value;
}
