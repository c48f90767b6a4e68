/** Texts of the sortable lists' query fields (kept apart from zod so the message catalogue stays light). */
export const LIST_QUERY_MSG = {
  sortInvalid: '排序字段不正确',
  orderInvalid: '排序方式只能是 asc 或 desc',
} as const;
