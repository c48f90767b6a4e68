import { describe, expect, it } from 'vitest';
import { acceptAttribute, isAccepted, parseAccept, rejectionOf } from './file-checks';

const f = (name: string, size = 1, type = '') => ({ name, size, type });

describe('parseAccept', () => {
  it('reads comma lists with or without dots, in any case, and MIME patterns', () => {
    const rule = parseAccept('.PDF, docx ,image/*,*.Zip')!;
    expect([...rule.extensions]).toEqual(['pdf', 'docx', 'zip']);
    expect(rule.mimeTypes).toEqual(['image/*']);
    expect(acceptAttribute(rule)).toBe('.pdf,.docx,.zip,image/*');
  });

  it('accepts everything when nothing is listed', () => {
    expect(parseAccept(undefined)).toBeNull();
    expect(parseAccept(' , ')).toBeNull();
    expect(isAccepted(null, f('x.exe'))).toBe(true);
  });

  it('matches extensions case-insensitively, and MIME patterns against the file type', () => {
    const rule = parseAccept('.pdf,image/*,text/plain');
    expect(isAccepted(rule, f('A.PDF'))).toBe(true);
    expect(isAccepted(rule, f('photo', 1, 'image/png'))).toBe(true);
    expect(isAccepted(rule, f('notes', 1, 'text/plain'))).toBe(true);
    expect(isAccepted(rule, f('notes', 1, 'text/html'))).toBe(false);
    expect(isAccepted(rule, f('a.pdf.exe'))).toBe(false);
  });
});

describe('rejectionOf', () => {
  const limits = { accept: parseAccept('pdf'), maxSize: 10, maxCount: 2 };
  it('reports the spec statuses', () => {
    expect(rejectionOf(f('a.pdf', 10), limits, 1)).toBeNull();
    expect(rejectionOf(f('a.pdf', 11), limits, 1)).toBe('error_exceedFileSize');
    expect(rejectionOf(f('a.doc', 1), limits, 1)).toBe('error_noSupportFile');
    expect(rejectionOf(f('a.pdf', 1), limits, 2)).toBe('error_exceedUploadMaxNum');
  });
  it('treats 0 or missing limits as unlimited', () => {
    expect(rejectionOf(f('a.x', 10 ** 12), { accept: null, maxSize: 0, maxCount: 0 }, 1000)).toBeNull();
  });
});
