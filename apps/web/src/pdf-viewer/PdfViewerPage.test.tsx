import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { initPreferences } from '../lib/preferences';
import { initViewerI18n } from './viewer-i18n';
import { PdfViewerPage } from './PdfViewerPage';

// pdf.js needs a real browser (e2e/files.e2e.ts draws real PDFs); here: which links are fetched.
vi.mock('../components/preview/PdfViewer', () => ({
  PdfViewer: ({ data }: { data: Blob }) => <div data-testid="pdf-stub" data-size={data.size} />,
}));

const ORIGIN = 'https://contest.example.cn';

beforeAll(() => {
  initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
  initViewerI18n();
});

afterEach(() => {
  vi.restoreAllMocks();
});

function mockFetch(response: Response | Error) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
}

describe('PdfViewerPage', () => {
  it.each(['', '?file=', `?file=${encodeURIComponent('https://evil.example.com/a.pdf')}`, `?file=${encodeURIComponent('blob:https://evil.example.com/1')}`])(
    'refuses %s without fetching anything',
    async (search) => {
      const fetch = mockFetch(new Response('%PDF-'));
      render(<PdfViewerPage search={search} origin={ORIGIN} />);
      expect((await screen.findByRole('alert')).textContent).toBe('文件链接无效，无法打开');
      expect(fetch).not.toHaveBeenCalled();
    },
  );

  it('fetches a blob link of this origin and draws it', async () => {
    const link = `blob:${ORIGIN}/0b6c3f5e-8d2a`;
    const fetch = mockFetch(new Response('%PDF-1.4'));
    render(<PdfViewerPage search={`?file=${encodeURIComponent(link)}`} origin={ORIGIN} />);
    await waitFor(() => expect(screen.getByTestId('pdf-stub').dataset.size).toBe('8'));
    expect(fetch).toHaveBeenCalledWith(link, expect.objectContaining({ credentials: 'same-origin' }));
  });

  it('fetches a same-origin attachment link with its query', async () => {
    const link = '/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv?expires=9&acct=a&sig=s';
    const fetch = mockFetch(new Response('%PDF-1.4'));
    render(<PdfViewerPage search={`?file=${encodeURIComponent(link)}`} origin={ORIGIN} />);
    await waitFor(() => screen.getByTestId('pdf-stub'));
    expect(fetch.mock.calls[0]![0]).toBe(`${ORIGIN}${link}`);
  });

  it('shows 哦哦，渲染发生错误 when the file cannot be fetched', async () => {
    mockFetch(new Response('{}', { status: 403 }));
    render(<PdfViewerPage search={`?file=${encodeURIComponent('/files/a.pdf')}`} origin={ORIGIN} />);
    expect((await screen.findByRole('alert')).textContent).toBe('哦哦，渲染发生错误');
  });
});
