import { sortQueryFields, userListQuerySchema, type SortQuery, type UserListQuery } from '@contest/shared';

/**
 * Sort keys of GET /admin/user/list: registration time (the default, newest first), username
 * (served by the realm+username index), last login (never-logged-in accounts last). Declared
 * here, next to the columns they map to in users.repository.ts; they join userListQuerySchema
 * in @contest/shared when the web app offers sorting.
 */
export const USER_SORT_KEYS = ['createdAt', 'username', 'lastLoginAt'] as const;
export type UserSortKey = (typeof USER_SORT_KEYS)[number];

/** The list's query: paging, filters, and `sort` / `order` (unknown keys are a 400). */
export const userListSortedQuerySchema = userListQuerySchema.safeExtend(sortQueryFields(USER_SORT_KEYS));
export type UserListSortedQuery = UserListQuery & SortQuery<UserSortKey>;
