import { describe, expect, it } from 'vitest';
import { isPdfViewerMessage, pdfViewerUrl, resolveViewerFile } from './pdf-viewer-link';

const ORIGIN = 'https://contest.example.cn';

describe('pdfViewerUrl', () => {
  it('passes the link encoded as ?file=, so its own query survives', () => {
    const link = '/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv?expires=1&acct=a&sig=x';
    const url = pdfViewerUrl(link);
    expect(url).toBe(`/pdf/web/viewer.html?file=${encodeURIComponent(link)}`);
    expect(new URL(url, ORIGIN).searchParams.get('file')).toBe(link);
    expect(pdfViewerUrl(`blob:${ORIGIN}/5f1c`)).toBe('/pdf/web/viewer.html?file=blob%3Ahttps%3A%2F%2Fcontest.example.cn%2F5f1c');
  });
});

describe('resolveViewerFile (the viewer opens only this origin’s links)', () => {
  it.each([
    ['/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv?preview=1', `${ORIGIN}/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv?preview=1`],
    [`${ORIGIN}/files/xieyi.pdf`, `${ORIGIN}/files/xieyi.pdf`],
    ['files/xieyi.pdf', `${ORIGIN}/files/xieyi.pdf`],
    [`blob:${ORIGIN}/0b6c3f5e-8d2a-4c1e-9f7a-1e2d3c4b5a69`, `blob:${ORIGIN}/0b6c3f5e-8d2a-4c1e-9f7a-1e2d3c4b5a69`],
    [`  BLOB:${ORIGIN}/0b6c3f5e  `, `blob:${ORIGIN}/0b6c3f5e`],
  ])('accepts %s', (param, expected) => {
    expect(resolveViewerFile(param, ORIGIN)).toBe(expected);
  });

  it.each([
    [null],
    [''],
    ['https://evil.example.com/a.pdf'],
    ['http://contest.example.cn/a.pdf'], // another scheme is another origin
    ['https://contest.example.cn:8443/a.pdf'],
    ['//evil.example.com/a.pdf'],
    ['/\\evil.example.com/a.pdf'],
    ['https://contest.example.cn.evil.com/a.pdf'],
    ['https://user:pass@contest.example.cn/a.pdf'],
    ['blob:https://evil.example.com/0b6c3f5e'],
    ['blob:null/0b6c3f5e'],
    ['blob:0b6c3f5e'],
    ['javascript:alert(1)'],
    ['data:application/pdf;base64,JVBERi0='],
    ['file:///etc/passwd'],
    ['ftp://contest.example.cn/a.pdf'],
  ])('refuses %s', (param) => {
    expect(resolveViewerFile(param, ORIGIN)).toBeNull();
  });
});

describe('isPdfViewerMessage', () => {
  it('knows only the viewer’s own messages', () => {
    expect(isPdfViewerMessage({ source: 'contest-pdf-viewer', type: 'rendered' })).toBe(true);
    expect(isPdfViewerMessage({ source: 'contest-pdf-viewer', type: 'error' })).toBe(true);
    expect(isPdfViewerMessage({ source: 'contest-pdf-viewer', type: 'other' })).toBe(false);
    expect(isPdfViewerMessage({ source: 'react-devtools', type: 'rendered' })).toBe(false);
    expect(isPdfViewerMessage('rendered')).toBe(false);
    expect(isPdfViewerMessage(null)).toBe(false);
  });
});
