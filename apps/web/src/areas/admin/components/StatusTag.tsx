import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** 启用 / 禁用 of an account or dictionary item. */
export function StatusTag({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('admin');
  return <Tag color={enabled ? 'success' : 'default'}>{enabled ? t('pages.common.enabled') : t('pages.common.disabled')}</Tag>;
}
