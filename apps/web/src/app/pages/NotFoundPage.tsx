import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Logo } from '../../components/Logo';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="status-page" data-testid="not-found">
      <header className="status-page__header">
        <Logo />
        <LanguageSwitch size="small" />
      </header>
      <Result
        status="404"
        title={t('notFound.title')}
        subTitle={t('notFound.subtitle')}
        extra={
          <Link to="/">
            <Button type="primary">{t('actions.backHome')}</Button>
          </Link>
        }
      />
    </main>
  );
}
