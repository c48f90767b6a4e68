import { ADMIN_MENU_PATHS } from '@contest/shared';

/** Pages of 证书模板 and 证书管理 (docs/certificates.md, "Web pages"). `new` opens an empty editor. */
export const CERTIFICATE_PATHS = {
  templates: ADMIN_MENU_PATHS.certificateTemplate,
  template: (id: string) => `${ADMIN_MENU_PATHS.certificateTemplate}/${encodeURIComponent(id)}`,
  newTemplate: `${ADMIN_MENU_PATHS.certificateTemplate}/new`,
  manage: ADMIN_MENU_PATHS.certificateManage,
} as const;

export const NEW_TEMPLATE_ID = 'new';
