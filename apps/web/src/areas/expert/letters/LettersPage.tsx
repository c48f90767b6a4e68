import { Card, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MyCertificateList } from '../../../components/certificates';
import { MY_LETTERS_QUERY_KEY, fetchMyLetters } from './letters-api';

/**
 * 我的聘书与感谢信 (/expert/letters, docs/certificates.md, "Web pages"): the letters the organisers
 * issued to this expert, each with its PDF and verification page. Outside the agreement gate: a
 * letter of appointment is the expert's whatever they agreed to.
 */
export function LettersPage() {
  const { t } = useTranslation('certificates');
  const mine = useQuery({ queryKey: MY_LETTERS_QUERY_KEY, queryFn: fetchMyLetters, retry: false });
  return (
    <section className="certificates-page" data-testid="expert-letters-page">
      <h1 className="certificates-page__title">{t('letters.title')}</h1>
      <Card>
        <Typography.Paragraph type="secondary">{t('letters.intro')}</Typography.Paragraph>
        <MyCertificateList
          certificates={mine.data}
          loading={mine.isPending}
          failed={mine.isError}
          onRetry={() => void mine.refetch()}
          emptyText={t('letters.empty')}
        />
      </Card>
    </section>
  );
}
