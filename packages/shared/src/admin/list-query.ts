import { z } from 'zod';
import { optionalQuery } from './common.js';

/** Direction of a sorted list: `order=asc` or `order=desc`. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * Texts of the sort fields, in the wording of ADMIN_MSG's filter texts (`结果筛选不正确`).
 * They are shown as written once listed by `isUserMessage` (packages/shared/src/messages.ts);
 * until then the error handler answers its generic `参数 sort 不合法`, still a 400 with
 * `data.field`.
 */
export const LIST_QUERY_MSG = {
  sortInvalid: '排序字段不正确',
  orderInvalid: '排序方式只能是 asc 或 desc',
} as const;

/**
 * Query fields `sort` (one of `keys`) and `order` (`asc`|`desc`) of a sortable list. The keys
 * are an enum, so an unknown key is a 400 before any SQL is built; empty values (`sort=`)
 * mean the list's default order. `order` without `sort` is ignored, `sort` without `order`
 * sorts ascending.
 *
 *   z.object({ ...pageQueryFields, ...sortQueryFields(['createdAt', 'username']), ...filters })
 */
export function sortQueryFields<const K extends readonly [string, ...string[]]>(keys: K) {
  return {
    sort: optionalQuery(z.enum(keys, { error: LIST_QUERY_MSG.sortInvalid })),
    order: optionalQuery(z.enum(SORT_ORDERS, { error: LIST_QUERY_MSG.orderInvalid })),
  };
}

/** The parsed `sort` / `order` of a list whose keys are K. */
export interface SortQuery<K extends string = string> {
  sort?: K | undefined;
  order?: SortOrder | undefined;
}
