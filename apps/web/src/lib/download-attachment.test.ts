import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from './api';
import { LINK_DOWNLOAD_MIN_BYTES, downloadAttachmentFile, downloadsByLink } from './download-attachment';
import { saveLink } from './save-blob';

const SIGNED = '/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv?expires=1893456000&acct=a1&sig=xyz';

let clicked: { href: string; download: string; inPage: boolean }[] = [];

beforeEach(() => {
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.getAttribute('href')!, download: this.download, inPage: document.body.contains(this) });
  });
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

function mockApi() {
  return vi.spyOn(api, 'get').mockImplementation((async (path: string, config?: { responseType?: string }) => {
    if (path === '/attachment/accessUrl') return { data: { url: SIGNED, name: '服务器名.mp4' } };
    if (config?.responseType === 'blob') return { blob: new Blob(['x']), fileName: '服务器名.pdf' };
    throw new Error(`unexpected ${path}`);
  }) as unknown as typeof api.get);
}

describe('downloadAttachmentFile', () => {
  it('hands a large file to the browser as a signed link with redirect=1, never as a blob', async () => {
    const get = mockApi();
    await downloadAttachmentFile({ uniqueNo: 'AbCdEfGhIjKlMnOpQrStUv', name: '路演.mp4', size: 500 * 1024 * 1024 });
    expect(get).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledWith(
      '/attachment/accessUrl',
      expect.objectContaining({ params: { filePath: '/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv' } }),
    );
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    // An empty download attribute: the name is the server's Content-Disposition.
    expect(clicked).toEqual([{ href: `${SIGNED}&redirect=1`, download: '', inPage: true }]);
    expect(document.querySelectorAll('a')).toHaveLength(0);
  });

  it('keeps small files on the blob path under the server-given name', async () => {
    const get = mockApi();
    await downloadAttachmentFile({ uniqueNo: 'u1', name: '方案.pdf', size: 2048 });
    expect(get).toHaveBeenCalledWith('/attachment/stream/u1', expect.objectContaining({ responseType: 'blob' }));
    expect(clicked).toEqual([{ href: 'blob:test/1', download: '服务器名.pdf', inPage: true }]);
  });

  it('rejects, downloading nothing, when the server gives no link', async () => {
    vi.spyOn(api, 'get').mockImplementation((async () => ({ data: null })) as unknown as typeof api.get);
    await expect(downloadAttachmentFile({ uniqueNo: 'u1', name: 'a.mp4', size: LINK_DOWNLOAD_MIN_BYTES + 1 })).rejects.toThrow();
    expect(clicked).toEqual([]);
  });

  it('goes by link only above the threshold and with a known size', () => {
    expect(downloadsByLink({ size: LINK_DOWNLOAD_MIN_BYTES })).toBe(false);
    expect(downloadsByLink({ size: LINK_DOWNLOAD_MIN_BYTES + 1 })).toBe(true);
    expect(downloadsByLink({ size: undefined })).toBe(false);
    expect(downloadsByLink({ size: null })).toBe(false);
  });
});

describe('saveLink', () => {
  it('clicks a hidden link with an empty download attribute and removes it', () => {
    saveLink('/api/x?redirect=1');
    expect(clicked).toEqual([{ href: '/api/x?redirect=1', download: '', inPage: true }]);
    expect(document.querySelectorAll('a')).toHaveLength(0);
  });
});
