import { useState, type ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { saveBlob } from '../../lib/save-blob';

export interface ExportButtonProps extends Omit<ButtonProps, 'onClick' | 'loading' | 'children'> {
  /** The export call, e.g. `/admin/team/export`. */
  url: string;
  /** The list's applied filters (page and size are left out). */
  params?: object;
  /** Used only when the server names no file. */
  fallbackName?: string;
  /** 导出 by default. */
  children?: ReactNode;
}

/**
 * Downloads the current filter as a file (.xlsx) through the admin client (blob answer; a JSON
 * refusal in the blob has been toasted by the client) and saves it under the server's name.
 */
export function ExportButton({ url, params, fallbackName = 'export.xlsx', children, icon, ...rest }: ExportButtonProps) {
  const { t } = useTranslation('admin');
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { page: _page, size: _size, ...filters } = (params ?? {}) as Record<string, unknown>;
      const result = await api.get(url, { params: filters, responseType: 'blob' });
      if ('blob' in result) saveBlob(result, fallbackName);
    } catch {
      // The client has shown the refusal (too many rows, no permission...).
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={icon ?? <DownloadOutlined />} loading={busy} onClick={() => void run()} data-testid="kit-export" {...rest}>
      {children ?? t('kit.export')}
    </Button>
  );
}
