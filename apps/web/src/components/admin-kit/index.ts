/**
 * Shared widgets of the admin and expert consoles (docs/rules/screens.md, "Shared widgets"), and the
 * pieces that make a contest list page mostly declaration (CONTRIBUTING.md). Import from this file.
 *
 * ## List pages: SearchTable + SearchField + columns
 *
 * ```tsx
 * const fields: SearchField[] = [
 *   { name: 'orgName', label: 'pages.contest.orgName', kind: 'text' },        // label: admin key or text
 *   { name: 'orgType', label: 'pages.contest.orgType', kind: 'dict', dictType: 'ORG_TYPE' },
 *   { name: 'status', label: 'pages.fields.status', kind: 'select', options: [{ value: 'SUBMITTED', label: '已提交' }] },
 *   { name: 'submitted', label: 'pages.contest.submittedAt', kind: 'dateTimeRange',
 *     fromName: 'submittedFrom', toName: 'submittedTo' },                      // two query fields
 * ];
 * const columns: SearchColumns<TeamAdminRow> = [
 *   { title: t('...'), dataIndex: 'teamName', key: 'teamName', sorter: true },  // sends sort=teamName&order=asc|desc
 *   { title: t('...'), dataIndex: 'orgType', dict: 'ORG_TYPE' },               // shows the dictionary name
 *   { title: t('...'), dataIndex: 'submittedAt', key: 'submittedAt', dateTime: true, sorter: true },
 * ];
 * <SearchTable<TeamAdminRow>
 *   queryKey={['admin', 'teams']}
 *   fetchPage={(q) => fetchTeams(q)}        // q = filters + {page, size} + {sort, order} when sorted
 *   rowKey="id"
 *   columns={columns}
 *   searchFields={fields}
 *   urlState                                // filters/page/size/sort/order live in the URL
 *   rowSelectable={(row) => row.status === 'SUBMITTED'}
 *   batchActions={(rows, clear) => <Button onClick={() => audit(rows).then(clear)}>批量通过</Button>}
 *   toolbar={(filters) => (
 *     <Permission codes={['qualification:export']}>
 *       <ExportButton url="/admin/team/export" params={filters} fallbackName="报名信息.xlsx" />
 *     </Permission>
 *   )}
 * />
 * ```
 *
 * - `SearchField` `{name, label, kind: 'text'|'select'|'dict'|'dateTimeRange'|'dateRange',
 *   dictType?, options?, fromName?, toName?, placeholder?, width?}`. `dict` selects load their
 *   options from `/dic/public?types=...` (one call per form); labels/option labels may be
 *   `ns:key` (e.g. `files:contest.teamStatus.SUBMITTED`); ranges become `fromName`/`toName`
 *   (default `<name>From`/`<name>To`) formatted `YYYY-MM-DD HH:mm:ss` / `YYYY-MM-DD`. Blank values
 *   are dropped. `filters` (hand-written Form.Items) still works and may be combined.
 * - `urlState` (opt-in): the applied filters, `page`, `size`, `sort`, `order` are URL search
 *   params; a reload or a pasted link shows the same list and the form shows the same values. A
 *   search pushes a history entry; page, size and sort changes replace it. Use it for at most one
 *   table per page. In the URL, values are strings; `initialFilters` apply while the URL holds
 *   no filter. `toQuery(values)` (optional) receives the declared query (ranges already split).
 *   Note: the console's tab bar reopens a tab by its path without the query.
 * - Columns (`SearchColumns<T>`: antd columns plus `dict?: string` (code -> name via /dic/label),
 *   `dateTime?: boolean` (ISO -> `YYYY-MM-DD HH:mm:ss` on the Beijing clock, the title saying
 *   `（北京时间）`; DataTable's columns take it too), `sortKey?: string`). `sorter: true` makes
 *   a column sortable; its sort key is `sortKey ?? key ?? dataIndex`.
 * - `batchActions(selectedRows, clear)` turns on row selection (checkbox column, `已选 n 项` with
 *   清空); `rowSelectable(row)` disables the box of other rows. The selection survives paging and
 *   clears when the filters change.
 * - `toolbar` (node or `(filters) => node`; filters include sort/order, never page/size).
 * - Every table scrolls horizontally inside its card on narrow screens.
 *
 * ## ExportButton
 * `<ExportButton url params? fallbackName? children? {...antd ButtonProps}/>`: GET `url` with
 * `params` (page/size dropped) as a blob through the admin client and saves it under the
 * server's Content-Disposition name; loading while it runs. Wrap it in <Permission/>.
 *
 * ## DetailLayout
 * ```tsx
 * <DetailLayout
 *   title={team.teamName} status={<ContestStatusTag kind="team" status={team.status} />}
 *   extra={<Button>审核</Button>}
 *   sections={[
 *     { key: 'org', title: '单位信息', items: [
 *       { label: '单位名称', value: team.orgName },
 *       { label: '单位类型', value: team.orgType, dict: 'ORG_TYPE' },     // name, not code
 *       { label: '审核意见', value: team.auditReason, span: 2 },          // '--' when empty; long text wraps
 *     ] },
 *     { key: 'members', title: '团队成员', content: <DataTable ... /> }, // any content
 *   ]}
 *   attachments={[{ label: '单位证明材料', files: [team.certificate] }]} // AttachmentList, with preview
 *   history={{ kind: 'team', entries: team.history }}                    // StatusHistory timeline
 * />
 * ```
 * Props: `title?, status?, extra?, alert?, loading?, sections: DetailSection[]`,
 * `attachments?: DetailAttachmentGroup[]` (+ `attachmentsTitle?`), `history?: {kind, entries, title?}`.
 * `DetailSection = {key, title, items?: DetailItem[], content?, extra?, columns? (default 2)}`;
 * `DetailItem = {label, value?, dict?, span?, render?(value), dateTime?}` (`dateTime`: an ISO value
 * shown on the Beijing clock, the label saying so).
 *
 * ## AuditDialog / AuditPanel
 * ```tsx
 * <AuditDialog open={open} count={rows.length} onClose={() => setOpen(false)}
 *   onSubmit={({ outcome, reason }) => auditTeam(id, { outcome, reason, version })} />
 * ```
 * Outcomes 通过 (`APPROVED`) / 退回修改 (`REVISING`) / 不通过 (`REJECTED`); a reason is required
 * unless approving (请填写审核意见), at most 500 characters; preset reasons from the dictionary
 * `AUDIT_REASON` fill the reason (still editable). `count > 1` (or `batch`) says how many records.
 * `onSubmit` returning a promise: the submit button loads; a rejection keeps the dialog open and
 * shows the error's message in it (call the API with `{silent: true}` to avoid a second toast);
 * a resolution closes it. Props: `open, onClose, onSubmit(decision): Promise<unknown>|unknown,
 * count?, batch?, title?, outcomes?, initialOutcome?`. `AuditPanel` is the same form inline (the
 * audit queue): `onSubmit, outcomes?, extra? (more buttons, e.g. 跳过), disabled?, resetKey?`
 * (change it to empty the form for the next record).
 * `AuditDecision = {outcome: AuditOutcome, reason: string}`.
 *
 * ## BatchResultDialog
 * `<BatchResultDialog result={batchResult | null} onClose nameLabel? names?/>`: the answer of a
 * batch call (`BatchResult`), open while not null: 成功 n 条，失败 m 条, then each row (failed
 * first) with 成功/失败 and its message; STALE rows say the record was handled or changed by
 * someone else meanwhile and was left unchanged.
 *
 * ## Helpers
 * `useDictOptions(types)` (enabled items of /dic/public as `{[type]: {value, label}[]}`),
 * `isStale(error)` (an ApiError with `data.reason === 'STALE'`), `formatDateTime(iso)` (a bare
 * Beijing time: only where the column title or field label says so, through `dateTime: true` or
 * `beijingTitle(label)`), `formatDateTimeLabel(iso)` (a time inside a sentence, marked
 * `（北京时间）`). `areas/admin/beijing-time-labels.test.ts` fails on a time shown unmarked.
 */

export { AppDialog } from './AppDialog';
export {
  AUDIT_REASON_DICT,
  AuditDialog,
  AuditPanel,
  isStale,
  withPreset,
  type AuditDecision,
  type AuditDialogProps,
  type AuditPanelProps,
} from './AuditDialog';
export { BatchResultDialog, type BatchResultDialogProps } from './BatchResultDialog';
export { ButtonGroup, type ButtonItem } from './ButtonGroup';
export { CardTitle } from './CardTitle';
export { DataTable, EMPTY_CELL, isEmptyCell, withDateTimes, withEmptyCells, useMinimumDuration, type KitColumn } from './DataTable';
export {
  DetailLayout,
  type DetailAttachmentGroup,
  type DetailItem,
  type DetailLayoutProps,
  type DetailSection,
} from './DetailLayout';
export { ExportButton, type ExportButtonProps } from './ExportButton';
export { KitTabs, type KitTabItem } from './KitTabs';
export { LabelValue } from './LabelValue';
export { LoadMoreSelect, type CodeName } from './LoadMoreSelect';
export { Pager } from './Pager';
export { SearchForm } from './SearchForm';
export { type SearchField, type SearchFieldKind, type SearchOption } from './search-fields';
export { beijingTitle, fetchDictPublic, formatDateTime, formatDateTimeLabel, useDictOptions, type KitOption } from './kit-data';
export {
  SearchTable,
  type PageParams,
  type SearchColumn,
  type SearchColumns,
  type SearchTableProps,
  type SortOrder,
  type SortParams,
} from './SearchTable';
export { SideDrawer } from './SideDrawer';
