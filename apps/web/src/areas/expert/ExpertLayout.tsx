import { useTranslation } from 'react-i18next';
import { ConsoleLayout } from '../../components/admin-kit/ConsoleLayout';
import { describeRefusal } from '../../components/admin-kit/refusal-text';
import { onDescribeRefusal } from '../../lib/api';
import { EXPERT_PATHS } from './paths';
import { useLiveMenu } from './live/use-live-menu';
import { useLettersMenu } from './letters/use-letters-menu';
import { useOrganisationsMenu } from './organisations-menu';

// The expert console's refusal toasts in the page's language, as the admin console's (AdminLayout).
onDescribeRefusal(describeRefusal);

/**
 * The expert console shares the admin layout (docs/rules/screens.md, "Consoles"): menu from the server (the
 * final review entry already dropped until the agreement is accepted), tabs, and the
 * watermark of the account code and masked account that every expert page carries (drawn over
 * the preview dialog too; the dialog adds the same text over the file, see ReviewFiles). The
 * 现场答辩 entry is added here, for an expert who judges a live session (useLiveMenu), and the
 * 申报回避单位 entry once the agreement is accepted (useOrganisationsMenu), and 我的聘书与感谢信
 * for an expert who holds a letter (useLettersMenu).
 * Menu codes are not enforced: the review pages wait behind the agreement gate (routes.ts).
 */
export function ExpertLayout() {
  const { t } = useTranslation('expert');
  useLiveMenu();
  useLettersMenu();
  useOrganisationsMenu();
  return (
    <ConsoleLayout
      realm="EXPERT"
      areaName={t('areaName')}
      homePath={EXPERT_PATHS.home}
      homeCode="expertIndex"
      logoutLabel={t('account.logout')}
      enforceMenus={false}
    />
  );
}
