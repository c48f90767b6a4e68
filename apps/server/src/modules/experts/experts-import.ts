/**
 * The expert import sheet (.xlsx): the downloadable template, reading an uploaded sheet and
 * checking every row. Pure apart from ExcelJS; what the database already holds (codes, phones)
 * is checked by the service, which adds its findings to the same row report.
 */
import ExcelJS from 'exceljs';
import { safeRow } from '../../lib/xlsx-stream.js';
import {
  CONTEST_MSG,
  CREDIT_CODE_LENGTH,
  EXPERT_CODE_PATTERN,
  EXPERT_DECLARED_MAX,
  EXPERT_IMPORT_COLUMNS,
  EXPERT_IMPORT_MAX_ROWS,
  PHONE_PATTERN,
  REVIEW_MSG as M,
  creditCodeValid,
  type ImportRowError,
} from '@contest/shared';
import { badRequest } from '../../lib/errors.js';

/** Field of each template column, in EXPERT_IMPORT_COLUMNS order. */
const KEYS = ['code', 'name', 'phone', 'organization', 'orgCreditCode', 'title', 'tracks', 'declaredOrgs'] as const;
export type ImportKey = (typeof KEYS)[number];

/** A header as people read it: without the required-field star. */
const plainHeader = (header: string) => header.trim().replace(/[*＊]+$/, '').trim();
/** Column header per field, as the row report names it (手机号, not 手机号*). */
export const COLUMN_OF = Object.fromEntries(KEYS.map((k, i) => [k, plainHeader(EXPERT_IMPORT_COLUMNS[i]!)])) as Record<ImportKey, string>;
const REQUIRED: ReadonlySet<ImportKey> = new Set(KEYS.filter((_, i) => EXPERT_IMPORT_COLUMNS[i]!.endsWith('*')));

/** Several values in one cell: separated by ；or ; or 、 (commas and line breaks tolerated). */
export const splitList = (cell: string) =>
  cell
    .split(/[；;、,，\r\n]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The template's example row: recognised by this name and skipped if left in the sheet. */
export const EXAMPLE_NAME = '示例专家（导入时忽略此行）';

export interface TrackItem {
  code: string;
  name: string;
}

// ------------------------------------------------------------------ credit codes

/**
 * A unified social credit code as the sign-up takes it: trimmed and upper-cased; blank is none.
 * Answers the code, or the sign-up's message for a wrong one.
 */
export function checkCreditCode(raw: string | null | undefined): { value: string | null; error?: string } {
  const value = (raw ?? '').trim().toUpperCase();
  if (!value) return { value: null };
  if (value.length !== CREDIT_CODE_LENGTH) return { value, error: CONTEST_MSG.creditCodeLength };
  if (!creditCodeValid(value)) return { value, error: CONTEST_MSG.creditCodeInvalid };
  return { value };
}

// ------------------------------------------------------------------ template

/** The template: the header (required columns marked *), an example row, the track list and notes. */
export async function buildTemplate(tracks: readonly TrackItem[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('专家信息');
  const widths: Record<ImportKey, number> = { code: 12, name: 26, phone: 16, organization: 30, orgCreditCode: 24, title: 14, tracks: 36, declaredOrgs: 36 };
  sheet.columns = KEYS.map((key, i) => ({ header: EXPERT_IMPORT_COLUMNS[i]!, key, width: widths[key] }));
  sheet.getRow(1).font = { bold: true };
  // Text cells: Excel would turn a phone or a credit code of digits into a number (and lose digits).
  for (const key of KEYS) sheet.getColumn(key).numFmt = '@';
  // Track names are admin-written text: quoted like every export's cells (lib/xlsx-stream.ts safeRow).
  sheet.addRow(safeRow({
    code: '',
    name: EXAMPLE_NAME,
    phone: '13800000000',
    organization: '示例大学附属医院',
    orgCreditCode: '',
    title: '主任医师',
    tracks: tracks.slice(0, 2).map((t) => t.name).join('；'),
    declaredOrgs: '示例科技有限公司；示例软件有限公司',
  }));
  sheet.views = [{ state: 'frozen', ySplit: 1 }];

  const trackSheet = workbook.addWorksheet('擅长方向');
  trackSheet.columns = [
    { header: '代码', key: 'code', width: 28 },
    { header: '名称', key: 'name', width: 36 },
  ];
  trackSheet.getRow(1).font = { bold: true };
  for (const t of tracks) trackSheet.addRow(safeRow({ code: t.code, name: t.name }));

  const notes = workbook.addWorksheet('填写说明');
  notes.getColumn(1).width = 100;
  for (const line of [
    '1. 带 * 的列必填；第 2 行为示例，导入时忽略，可删除。',
    '2. 专家编号可不填，系统按 E0001 格式自动生成；填写时应为字母 E 加 4 位以上数字，且不能与已有专家重复。',
    '3. 专家使用专家编号或手机号登录专家端，初始密码在导入成功后显示一次，请妥善保存。',
    '4. 擅长方向填写“擅长方向”表中的名称或代码，多个用；或 ; 或 、 分隔。',
    '5. 回避单位填写需要回避的单位名称，多个用；或 ; 或 、 分隔，最多 20 个。',
    `6. 一次最多导入 ${EXPERT_IMPORT_MAX_ROWS} 名专家；任何一行有错误时不导入任何专家，请按错误报告修改后重新导入。`,
  ]) {
    notes.addRow([line]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ------------------------------------------------------------------ reading

export interface SheetRow {
  /** Row number as Excel shows it. */
  row: number;
  cells: Record<ImportKey, string>;
}

/** A cell as text, whatever ExcelJS made of it (number, rich text, hyperlink, formula, date). */
function textOf(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value && Array.isArray(value.richText)) return value.richText.map((r) => r.text).join('').trim();
    if ('text' in value && typeof value.text === 'string') return value.text.trim();
    if ('result' in value) return textOf((value as { result?: ExcelJS.CellValue }).result ?? null);
  }
  return '';
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * The data rows of an uploaded sheet (first worksheet; columns found by their headers, so a
 * reordered sheet still reads). Blank rows and the template's example row are skipped.
 * 400 importFileInvalid (not an .xlsx, or required columns missing), importEmpty, importTooMany.
 */
export async function readSheet(content: Buffer): Promise<SheetRow[]> {
  if (content.length < ZIP_MAGIC.length || !content.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) throw badRequest(M.importFileInvalid);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw badRequest(M.importFileInvalid);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw badRequest(M.importFileInvalid);

  const columnOf = new Map<ImportKey, number>();
  const byHeader = new Map<string, ImportKey>(KEYS.map((k) => [COLUMN_OF[k], k]));
  sheet.getRow(1).eachCell((cell, col) => {
    const key = byHeader.get(plainHeader(textOf(cell.value)));
    if (key && !columnOf.has(key)) columnOf.set(key, col);
  });
  for (const key of REQUIRED) if (!columnOf.has(key)) throw badRequest(M.importFileInvalid);

  // A cheap bound before reading cells: rows ExcelJS holds (blank ones included).
  if (sheet.actualRowCount > EXPERT_IMPORT_MAX_ROWS * 2 + 10) throw badRequest(M.importTooMany);
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number === 1) return;
    const cells = {} as Record<ImportKey, string>;
    for (const key of KEYS) {
      const col = columnOf.get(key);
      cells[key] = col ? textOf(row.getCell(col).value) : '';
    }
    if (KEYS.every((k) => cells[k] === '')) return;
    if (cells.name === EXAMPLE_NAME) return;
    rows.push({ row: number, cells });
  });
  if (rows.length === 0) throw badRequest(M.importEmpty);
  if (rows.length > EXPERT_IMPORT_MAX_ROWS) throw badRequest(M.importTooMany);
  return rows;
}

// ------------------------------------------------------------------ checking

/** A row that passed its own checks; `code` null = to be generated. */
export interface ImportCandidate {
  row: number;
  code: string | null;
  name: string;
  phone: string;
  organization: string;
  orgCreditCode: string | null;
  title: string | null;
  tracks: string[];
  declaredOrgs: Array<{ name: string; creditCode: null }>;
}

/**
 * Checks each row on its own and against the other rows of the sheet (not the database):
 * required cells, formats and lengths, tracks by name or code, duplicates within the sheet.
 * Every problem of a row is reported (one per column), in row then column order.
 */
export function checkRows(rows: readonly SheetRow[], tracks: readonly TrackItem[]): { candidates: ImportCandidate[]; errors: ImportRowError[] } {
  const errors: ImportRowError[] = [];
  const candidates: ImportCandidate[] = [];
  const trackByText = new Map<string, string>();
  for (const t of tracks) {
    trackByText.set(t.code.toLowerCase(), t.code);
    trackByText.set(t.name, t.code);
  }
  const firstRowOf = { code: new Map<string, number>(), phone: new Map<string, number>() };

  for (const { row, cells } of rows) {
    const before = errors.length;
    const fail = (key: ImportKey, reason: string) => errors.push({ row, column: COLUMN_OF[key], reason });

    const code = cells.code.toUpperCase();
    if (code) {
      if (!EXPERT_CODE_PATTERN.test(code)) fail('code', M.expertCodeInvalid);
      else {
        const first = firstRowOf.code.get(code);
        if (first !== undefined) fail('code', `与第 ${first} 行重复`);
        else firstRowOf.code.set(code, row);
      }
    }

    if (!cells.name) fail('name', M.expertNameRequired);
    else if (cells.name.length > 50) fail('name', M.expertNameTooLong);

    const phone = cells.phone.replace(/\s+/g, '');
    if (!phone) fail('phone', M.expertPhoneRequired);
    else if (!PHONE_PATTERN.test(phone)) fail('phone', M.expertPhoneInvalid);
    else {
      const first = firstRowOf.phone.get(phone);
      if (first !== undefined) fail('phone', `与第 ${first} 行重复`);
      else firstRowOf.phone.set(phone, row);
    }

    if (!cells.organization) fail('organization', M.expertOrgRequired);
    else if (cells.organization.length > 100) fail('organization', M.expertOrgTooLong);

    const credit = checkCreditCode(cells.orgCreditCode);
    if (credit.error) fail('orgCreditCode', credit.error);

    if (cells.title.length > 50) fail('title', M.expertTitleTooLong);

    const trackCodes: string[] = [];
    const trackTexts = splitList(cells.tracks);
    if (trackTexts.length === 0) fail('tracks', M.expertTracksRequired);
    else {
      const unknown = trackTexts.filter((text) => !trackByText.has(text) && !trackByText.has(text.toLowerCase()));
      if (unknown.length) fail('tracks', `擅长方向“${unknown.join('、')}”不存在，请填写“擅长方向”表中的名称或代码`);
      for (const text of trackTexts) {
        const c = trackByText.get(text) ?? trackByText.get(text.toLowerCase());
        if (c && !trackCodes.includes(c)) trackCodes.push(c);
      }
      if (trackCodes.length > 20) fail('tracks', M.expertTrackInvalid);
    }

    const declared = [...new Set(splitList(cells.declaredOrgs))];
    if (declared.length > EXPERT_DECLARED_MAX) fail('declaredOrgs', M.expertDeclaredTooMany);
    else if (declared.some((d) => d.length > 100)) fail('declaredOrgs', M.expertOrgTooLong);

    if (errors.length > before) continue;
    candidates.push({
      row,
      code: code || null,
      name: cells.name,
      phone,
      organization: cells.organization,
      orgCreditCode: credit.value,
      title: cells.title || null,
      tracks: trackCodes,
      declaredOrgs: declared.map((name) => ({ name, creditCode: null })),
    });
  }
  return { candidates, errors };
}

/** Row report order: by row, then by the template's column order. */
export function sortErrors(errors: ImportRowError[]): ImportRowError[] {
  const order = new Map(KEYS.map((k, i) => [COLUMN_OF[k], i]));
  return [...errors].sort((a, b) => a.row - b.row || (order.get(a.column) ?? 99) - (order.get(b.column) ?? 99));
}
