/**
 * Unit tests leave antd's generated styles out of the document (test-setup.ts: they made every
 * getComputedStyle slow). A test about the styles themselves turns them on for its file.
 */
let inserted = false;

export function insertAntdStyles(on = true): void {
  inserted = on;
}

export function antdStylesInserted(): boolean {
  return inserted;
}
