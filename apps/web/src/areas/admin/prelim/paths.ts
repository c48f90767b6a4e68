/** Paths of the 初赛管理 and 决赛项目管理 pages, for links between them. */

/** The id that makes the audit page a queue: the next SUBMITTED materials, one after another. */
export const AUDIT_QUEUE_ID = 'queue';

export const PRELIM_PATHS = {
  drafts: '/admin/preliminary/preliminaryBox',
  draft: (id: string) => `/admin/preliminary/draft-detail/${encodeURIComponent(id)}`,
  list: '/admin/preliminary/preliminarySearch',
  detail: (id: string) => `/admin/preliminary/detail/${encodeURIComponent(id)}`,
  audit: (id: string) => `/admin/preliminary/audit/${encodeURIComponent(id)}`,
  queue: `/admin/preliminary/audit/${AUDIT_QUEUE_ID}`,
  finals: '/admin/preliminary/preliminaryAdminSearch',
  final: (id: string) => `/admin/preliminary-admin/detail/${encodeURIComponent(id)}`,
};
