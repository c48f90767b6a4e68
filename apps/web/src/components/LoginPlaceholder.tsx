import { Card, Typography } from 'antd';
import { LanguageSwitch } from './LanguageSwitch';
import logoUrl from '../assets/logo.svg';

export interface LoginPlaceholderProps {
  areaName: string;
  title: string;
  description: string;
}

/** Stand-in for the admin and expert login pages until the identity feature lands. */
export function LoginPlaceholder({ areaName, title, description }: LoginPlaceholderProps) {
  return (
    <main className="login-placeholder">
      <Card className="login-placeholder__card">
        <img className="login-placeholder__logo" src={logoUrl} alt="" width={56} height={56} />
        <Typography.Text type="secondary">{areaName}</Typography.Text>
        <Typography.Title level={2} className="login-placeholder__title">
          {title}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{description}</Typography.Paragraph>
        <LanguageSwitch size="small" />
      </Card>
    </main>
  );
}
