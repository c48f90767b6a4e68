import type { ReactNode } from 'react';
import { Button, Empty } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

export interface PlaceholderPageProps {
  title: string;
  /** Defaults to the generic "under construction" text. */
  description?: ReactNode;
  /** Show a back button (detail pages). */
  back?: boolean;
}

/** Stand-in for pages whose feature lands in a later issue. */
export function PlaceholderPage({ title, description, back = false }: PlaceholderPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="placeholder-page">
      <header className="placeholder-page__header">
        {back && (
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(-1)}>
            {t('actions.back')}
          </Button>
        )}
        <h1 className="placeholder-page__title">{title}</h1>
      </header>
      <Empty description={description ?? t('placeholder')} />
    </section>
  );
}
