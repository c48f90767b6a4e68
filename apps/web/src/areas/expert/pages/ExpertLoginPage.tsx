import { useTranslation } from 'react-i18next';
import { StaffLogin } from '../../../components/StaffLogin';
import { EXPERT_PATHS } from '../paths';

export function ExpertLoginPage() {
  const { t } = useTranslation('expert');
  return (
    <StaffLogin
      realm="EXPERT"
      areaName={t('areaName')}
      title={t('titles.login')}
      subtitle={t('loginSubtitle')}
      homePath={EXPERT_PATHS.home}
    />
  );
}
