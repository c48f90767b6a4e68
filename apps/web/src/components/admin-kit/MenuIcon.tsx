import {
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  BookOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FolderOutlined,
  HomeOutlined,
  MailOutlined,
  MessageOutlined,
  NotificationOutlined,
  ProfileOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  TrophyOutlined,
  UserOutlined,
} from '@ant-design/icons';

/**
 * Menu icons by the name the server sends. A fixed map rather than `import * as Icons`:
 * the whole icon set would add megabytes to the admin chunk for a dozen icons. An
 * unknown name shows the fallback, so new menus never break the layout.
 */
export const MENU_ICONS: Record<string, typeof AppstoreOutlined> = {
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  BookOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FolderOutlined,
  HomeOutlined,
  MailOutlined,
  MessageOutlined,
  NotificationOutlined,
  ProfileOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  TrophyOutlined,
  UserOutlined,
};

export const FALLBACK_MENU_ICON = 'AppstoreOutlined';

export function MenuIcon({ name }: { name?: string | null | undefined }) {
  const Icon = (name && MENU_ICONS[name]) || AppstoreOutlined;
  return <Icon data-icon={name && MENU_ICONS[name] ? name : FALLBACK_MENU_ICON} />;
}
