/** Paths of the 报名管理 pages, for links between them. */
export const QUALIFICATION_PATHS = {
  list: '/admin/competition/qualification',
  detail: (id: string) => `/admin/competition/qualification-detail/${encodeURIComponent(id)}`,
  audit: '/admin/competition/qualification-audit',
  drafts: '/admin/competition/qualification-draft',
  draft: (id: string) => `/admin/competition/qualification-draft/${encodeURIComponent(id)}`,
};
