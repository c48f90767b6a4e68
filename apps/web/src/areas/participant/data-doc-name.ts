import { useTranslation } from 'react-i18next';
import { DATA_DOC_MENU_NAME_DEFAULT } from '@contest/shared';
import type { ParticipantInfo } from '../../lib/session';

/**
 * The data page's name in the menu and its title: the operator's own name from the settings as
 * written, but the default 数据文档 in the page's language (the setting has no English value).
 */
export function useDataDocName(info: Pick<ParticipantInfo, 'dataDocMenuName'> | undefined): string {
  const { t } = useTranslation('participant');
  const name = info?.dataDocMenuName;
  if (!name) return t('titles.module');
  return name === DATA_DOC_MENU_NAME_DEFAULT ? t('titles.dataDoc') : name;
}
