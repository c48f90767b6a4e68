import { CONTEST_NAME_DEFAULT } from '@contest/shared';

/**
 * The preview watermark text (docs/rules/screens.md, "File preview"): the contest name, except on the /module page
 * and for experts (whose own watermark already covers their screens).
 */
export function previewWatermarkText(pathname: string, firstRoleCode: string | null | undefined): string | null {
  if (pathname === '/module') return null;
  if (firstRoleCode === 'EXPERT') return null;
  return CONTEST_NAME_DEFAULT;
}
