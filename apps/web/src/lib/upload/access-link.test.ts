import type { AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../../api';
import { attachmentStreamPath, fetchAccessUrl, fetchRedirectLink, parseAccessLink, withRedirect } from './upload-api';

function setup(data: unknown) {
  const calls: InternalAxiosRequestConfig[] = [];
  localStorage.setItem('AccessToken', 'tok');
  const client = createHttpClient({
    getPathname: () => '/my-sign',
    storage: localStorage,
    ui: { error: vi.fn(), closeAll: vi.fn(), confirm: vi.fn(async () => true) },
    navigate: vi.fn(),
    openLogin: vi.fn(),
    adapter: async (config): Promise<AxiosResponse> => {
      calls.push(config);
      return { data: { status: 200, code: 'OK', message: '', data }, status: 200, statusText: 'OK', headers: {}, config, request: {} };
    },
  });
  return { client, calls };
}

describe('access links', () => {
  it('withRedirect adds redirect=1 once, before any fragment', () => {
    expect(withRedirect('/api/attachment/stream/x?expires=1&acct=a&sig=s')).toBe('/api/attachment/stream/x?expires=1&acct=a&sig=s&redirect=1');
    expect(withRedirect('/api/attachment/stream/x')).toBe('/api/attachment/stream/x?redirect=1');
    expect(withRedirect('/a?sig=s&redirect=1')).toBe('/a?sig=s&redirect=1');
    expect(withRedirect('/a?sig=s#t=10')).toBe('/a?sig=s&redirect=1#t=10');
  });

  it('attachmentStreamPath is the stream path the server takes as a file path', () => {
    expect(attachmentStreamPath('AbCdEfGhIjKlMnOpQrStUv')).toBe('/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv');
  });

  it('parseAccessLink reads the url and the name', () => {
    expect(parseAccessLink({ url: '/l', name: 'a.mp4', size: 3 })).toEqual({ url: '/l', name: 'a.mp4' });
    expect(parseAccessLink('/l')).toEqual({ url: '/l', name: null });
    expect(parseAccessLink({ name: 'a' })).toBeNull();
  });

  it('fetchRedirectLink asks /attachment/accessUrl with the token and adds redirect=1', async () => {
    const { client, calls } = setup({ url: '/api/attachment/stream/x?sig=1', name: 'v.mp4' });
    const controller = new AbortController();
    expect(await fetchRedirectLink(client, '/api/attachment/stream/x', { signal: controller.signal })).toEqual({
      url: '/api/attachment/stream/x?sig=1&redirect=1',
      name: 'v.mp4',
    });
    expect(calls[0]!.url).toBe('/attachment/accessUrl');
    expect(calls[0]!.params).toEqual({ filePath: '/api/attachment/stream/x' });
    expect(calls[0]!.signal).toBe(controller.signal);
    expect(calls[0]!.headers.Authorization ?? calls[0]!.headers.authorization).toBeTruthy();
  });

  it('fetchRedirectLink rejects when no link comes back; fetchAccessUrl answers null', async () => {
    await expect(fetchRedirectLink(setup(null).client, '/p')).rejects.toThrow();
    expect(await fetchAccessUrl(setup(null).client, '/p')).toBeNull();
  });
});
