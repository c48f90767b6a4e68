/**
 * The preview watermark text (docs/rules/screens.md, "File preview"): the contest name of 大赛设置 in the page's
 * language (`contestName`), except on the /module page
 * and for experts (whose own watermark already covers their screens).
 */
export function previewWatermarkText(pathname: string, firstRoleCode: string | null | undefined, contestName: string): string | null {
  if (pathname === '/module') return null;
  if (firstRoleCode === 'EXPERT') return null;
  return contestName;
}
