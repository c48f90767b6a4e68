import { Modal, type ModalProps } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The console's dialog: buttons 取消 and 确认 unless told otherwise (docs/rules/screens.md, "Shared widgets"); a
 * backdrop click does not close it, so a half-filled form is never lost by a stray click.
 */
export function AppDialog({ okText, cancelText, destroyOnHidden = true, ...rest }: ModalProps) {
  const { t } = useTranslation('admin');
  return (
    <Modal
      okText={okText ?? t('kit.ok')}
      cancelText={cancelText ?? t('kit.cancel')}
      destroyOnHidden={destroyOnHidden}
      mask={{ closable: false }}
      {...rest}
    />
  );
}
