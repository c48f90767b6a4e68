import { beforeAll, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { initI18n } from '../../i18n';
import { initPreferences } from '../../lib/preferences';
import { PdfFrame } from './PdfFrame';

beforeAll(() => {
  // The frame's page is not under test here: every page it asks for is a blank one.
  const happyDOM = (window as unknown as { happyDOM?: { settings: HappyDomSettings } }).happyDOM;
  if (happyDOM) {
    happyDOM.settings.enableIframePageLoading = true;
    happyDOM.settings.fetch.interceptor = {
      beforeAsyncRequest: async () => new Response('<!doctype html><html><body></body></html>', { headers: { 'content-type': 'text/html' } }),
    };
  }
  initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
  initI18n();
});

interface HappyDomSettings {
  enableIframePageLoading: boolean;
  fetch: { interceptor: { beforeAsyncRequest(): Promise<Response> } | null };
}

function post(data: unknown, source: MessageEventSource | null, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, source, origin }));
  });
}

describe('PdfFrame', () => {
  it('frames the viewer page with the file link as ?file=', () => {
    const url = `blob:${window.location.origin}/0b6c3f5e-8d2a`;
    render(<PdfFrame url={url} title="方案.pdf" onRendered={() => {}} onError={() => {}} />);
    const frame = screen.getByTestId('pdf-frame') as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe(`/pdf/web/viewer.html?file=${encodeURIComponent(url)}`);
    expect(frame.title).toBe('方案.pdf');
  });

  it('believes only its own frame, on this origin, saying a known thing', () => {
    const onRendered = vi.fn();
    const onError = vi.fn();
    render(<PdfFrame url="blob:x" title="a.pdf" onRendered={onRendered} onError={onError} />);
    const own = (screen.getByTestId('pdf-frame') as HTMLIFrameElement).contentWindow;
    expect(own).toBeTruthy();

    post({ source: 'contest-pdf-viewer', type: 'rendered' }, window);
    post({ source: 'contest-pdf-viewer', type: 'rendered' }, own, 'https://evil.example.com');
    post({ source: 'something-else', type: 'rendered' }, own);
    expect(onRendered).not.toHaveBeenCalled();

    post({ source: 'contest-pdf-viewer', type: 'rendered' }, own);
    expect(onRendered).toHaveBeenCalledTimes(1);
    post({ source: 'contest-pdf-viewer', type: 'error' }, own);
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
