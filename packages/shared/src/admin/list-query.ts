import { z } from 'zod';
import { optionalQuery } from './common.js';

/** Direction of a sorted list: `order=asc` or `order=desc`. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export { LIST_QUERY_MSG } from './list-query-messages.js';
import { LIST_QUERY_MSG } from './list-query-messages.js';

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
