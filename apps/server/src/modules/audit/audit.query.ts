import {
  loginRecordQuerySchema,
  operationRecordQuerySchema,
  sortQueryFields,
  type LoginRecordQuery,
  type OperationRecordQuery,
  type SortQuery,
} from '@contest/shared';

/**
 * Sort keys of the audit lists: time only (`order=asc` for oldest first). The tables hold
 * millions of rows and only the realm+time index serves a page without reading them all, so
 * no other key is offered. They join the shared schemas when the web app offers sorting.
 */
export const AUDIT_SORT_KEYS = ['createdAt'] as const;
export type AuditSortKey = (typeof AUDIT_SORT_KEYS)[number];

export const loginRecordSortedQuerySchema = loginRecordQuerySchema.safeExtend(sortQueryFields(AUDIT_SORT_KEYS));
export type LoginRecordSortedQuery = LoginRecordQuery & SortQuery<AuditSortKey>;

export const operationRecordSortedQuerySchema = operationRecordQuerySchema.safeExtend(sortQueryFields(AUDIT_SORT_KEYS));
export type OperationRecordSortedQuery = OperationRecordQuery & SortQuery<AuditSortKey>;
