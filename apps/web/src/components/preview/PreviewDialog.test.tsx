import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'antd';
import { AppProviders } from '../../app/providers';
import { initI18n } from '../../i18n';
import { api } from '../../lib/api';
import { initPreferences } from '../../lib/preferences';
import { PreviewDialog, type PreviewDialogProps } from './PreviewDialog';
import type { PreviewFetcher, PreviewFile } from './preview-file';
import { usePreviewDialog } from './use-preview';

// The viewer page needs a real browser (e2e/files.e2e.ts); the dialog's part (the link handed
// to the frame, the callbacks) is what is tested here. PdfFrame.test.tsx covers the frame.
vi.mock('./PdfFrame', () => ({
  PdfFrame: ({ url, onRendered }: { url: string; onRendered(): void }) => (
    <button type="button" data-testid="pdf-stub" data-url={url} onClick={onRendered}>
      pdf
    </button>
  ),
}));

const FILES: PreviewFile[] = [
  { id: 'f1', name: '照片.PNG' },
  { id: 'f2', name: '方案.pdf' },
  { id: 'f3', name: '资料.zip' },
  { id: 'f4', name: '说明.docx' },
];

let urls = 0;
let created: string[] = [];
let revoked: string[] = [];

beforeEach(() => {
  urls = 0;
  created = [];
  revoked = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:test/${++urls}`;
    created.push(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => {
    revoked.push(url);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

function setup(props: Partial<PreviewDialogProps> = {}, startIndex = 0) {
  initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
  initI18n();
  const fetchFile = vi.fn<PreviewFetcher>(async (file) => ({ blob: new Blob([file.id]), name: null }));
  let setOpen: (open: boolean) => void = () => {};
  function Harness() {
    const [open, changeOpen] = useState(true);
    const [index, setIndex] = useState(startIndex);
    setOpen = changeOpen;
    return (
      <PreviewDialog
        open={open}
        files={FILES}
        index={index}
        onIndexChange={setIndex}
        onClose={() => changeOpen(false)}
        fetchFile={fetchFile}
        {...props}
      />
    );
  }
  render(
    <AppProviders queryClient={new QueryClient()}>
      <Harness />
    </AppProviders>,
  );
  const image = () => screen.getByTestId('preview-image') as HTMLImageElement;
  const title = () => screen.getByTestId('preview-title').textContent;
  const next = () => fireEvent.click(screen.getByRole('button', { name: '下一个' }));
  const prev = () => fireEvent.click(screen.getByRole('button', { name: '上一个' }));
  return { fetchFile, image, title, next, prev, close: (v = false) => act(() => setOpen(v)) };
}

describe('PreviewDialog', () => {
  it('shows the loading overlay until the image has loaded, with its blob link', async () => {
    const { fetchFile, image, title } = setup();
    expect(screen.getByTestId('preview-loading')).toBeTruthy();
    await waitFor(() => expect(image().getAttribute('src')).toBe('blob:test/1'));
    expect(fetchFile).toHaveBeenCalledWith(FILES[0], expect.any(AbortSignal));
    expect(title()).toBe('照片.PNG');
    expect(screen.getByTestId('preview-loading')).toBeTruthy();
    fireEvent.load(image());
    expect(screen.queryByTestId('preview-loading')).toBeNull();
  });

  it('warns 当前已是第一个 and 当前已是最后一个 at the ends', async () => {
    const { prev, next, title } = setup();
    await waitFor(() => screen.getByTestId('preview-image'));
    prev();
    await waitFor(() => expect(document.body.textContent).toContain('当前已是第一个'));
    expect(title()).toBe('照片.PNG');
    next();
    next();
    next();
    await waitFor(() => expect(title()).toBe('说明.docx'));
    next();
    await waitFor(() => expect(document.body.textContent).toContain('当前已是最后一个'));
    expect(title()).toBe('说明.docx');
  });

  it('revokes the blob link when the file changes and when the dialog closes', async () => {
    const { next, close, fetchFile } = setup();
    await waitFor(() => expect(created).toEqual(['blob:test/1']));
    expect(revoked).toEqual([]);
    next();
    await waitFor(() => expect(screen.getByTestId('pdf-stub')).toBeTruthy());
    expect(revoked).toEqual(['blob:test/1']);
    expect(created).toEqual(['blob:test/1', 'blob:test/2']);
    expect(fetchFile).toHaveBeenLastCalledWith(FILES[1], expect.any(AbortSignal));
    // The PDF viewer page gets the blob link of the fetched bytes; the overlay stays until it reports a page drawn.
    expect(screen.getByTestId('pdf-stub').dataset.url).toBe('blob:test/2');
    expect(screen.getByTestId('preview-loading')).toBeTruthy();
    fireEvent.click(screen.getByTestId('pdf-stub'));
    expect(screen.queryByTestId('preview-loading')).toBeNull();

    await close();
    expect(revoked).toEqual(['blob:test/1', 'blob:test/2']);
  });

  it('uses the bytes cached while open when coming back to a file, with a fresh link', async () => {
    const { next, prev, fetchFile } = setup();
    await waitFor(() => expect(created).toHaveLength(1));
    next();
    await waitFor(() => expect(created).toHaveLength(2));
    prev();
    await waitFor(() => expect(created).toHaveLength(3));
    expect(fetchFile).toHaveBeenCalledTimes(2);
    expect((screen.getByTestId('preview-image') as HTMLImageElement).getAttribute('src')).toBe('blob:test/3');
    expect(revoked).toEqual(['blob:test/1', 'blob:test/2']);
  });

  it('says 压缩文件暂不支持预览 and 当前文件类型不支持预览 for files it cannot show, without fetching', async () => {
    const { fetchFile } = setup({}, 2);
    expect(await screen.findByText('压缩文件暂不支持预览')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '下一个' }));
    expect(await screen.findByText('当前文件类型不支持预览')).toBeTruthy();
    expect(fetchFile).not.toHaveBeenCalled();
    expect(screen.queryByTestId('preview-loading')).toBeNull();
  });

  it('shows 哦哦，渲染发生错误 when the file cannot be fetched or drawn, and clears it on switching', async () => {
    const fetchFile = vi.fn<PreviewFetcher>(async (file) => {
      if (file.id === 'f1') throw new Error('404');
      return { blob: new Blob(['x']) };
    });
    const { next, prev } = setup({ fetchFile });
    expect(await screen.findByText('哦哦，渲染发生错误')).toBeTruthy();
    next();
    await waitFor(() => expect(screen.getByTestId('pdf-stub')).toBeTruthy());
    expect(screen.queryByText('哦哦，渲染发生错误')).toBeNull();
    prev();
    expect(await screen.findByText('哦哦，渲染发生错误')).toBeTruthy();
  });

  it('shows 哦哦，渲染发生错误 when the image fails to decode', async () => {
    const { image } = setup();
    await waitFor(() => image());
    fireEvent.error(image());
    expect(screen.getByText('哦哦，渲染发生错误')).toBeTruthy();
  });

  it('rotates by 90 degrees modulo 360 with 旋转', async () => {
    const { image } = setup();
    await waitFor(() => image());
    const rotate = screen.getByRole('button', { name: /旋转/ });
    const seen: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      fireEvent.click(rotate);
      seen.push(image().dataset.rotation!);
    }
    expect(seen).toEqual(['90', '180', '270', '0', '90']);
    expect(image().style.transform).toContain('rotate(90deg)');
  });

  it('zooms with the wheel only strictly between 0.1 and 5, and drags the image', async () => {
    const { image } = setup();
    await waitFor(() => image());
    const stage = screen.getByTestId('image-stage');
    fireEvent.wheel(stage, { deltaY: -100, deltaMode: 0 });
    expect(Number(image().dataset.scale)).toBeCloseTo(1.1);
    for (let i = 0; i < 100; i += 1) fireEvent.wheel(stage, { deltaY: -100, deltaMode: 0 });
    const top = Number(image().dataset.scale);
    expect(top).toBeLessThan(5);
    expect(top).toBeGreaterThan(4.8);
    for (let i = 0; i < 100; i += 1) fireEvent.wheel(stage, { deltaY: 100, deltaMode: 0 });
    const bottom = Number(image().dataset.scale);
    expect(bottom).toBeGreaterThan(0.1);
    expect(bottom).toBeLessThan(0.25);

    fireEvent.pointerDown(stage, { pointerId: 1, button: 0, clientX: 10, clientY: 10 });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 40, clientY: 25 });
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 40, clientY: 25 });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 90, clientY: 90 });
    expect(image().style.transform).toContain('translate(30px, 15px)');
  });

  it('hides the arrows with noSwitch', async () => {
    setup({ noSwitch: true });
    await waitFor(() => screen.getByTestId('preview-image'));
    expect(screen.queryByRole('button', { name: '下一个' })).toBeNull();
    expect(screen.queryByRole('button', { name: '上一个' })).toBeNull();
  });

  it('puts the contest watermark over the content, unless told otherwise', async () => {
    setup();
    await waitFor(() => screen.getByTestId('preview-image'));
    expect(document.querySelector('.preview-dialog__watermark')).not.toBeNull();
  });

  it('has no watermark when the rule says none', async () => {
    setup({ watermark: null });
    await waitFor(() => screen.getByTestId('preview-image'));
    expect(document.querySelector('.preview-dialog__watermark')).toBeNull();
  });
});

describe('usePreviewDialog', () => {
  function Page({ files }: { files: PreviewFile[] }) {
    const { preview, holder } = usePreviewDialog();
    return (
      <>
        {files.map((file, i) => (
          <Button key={file.name} onClick={() => preview(files, i)}>
            {file.name}
          </Button>
        ))}
        {holder}
      </>
    );
  }

  function renderPage(files: PreviewFile[]) {
    initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
    initI18n();
    render(
      <AppProviders queryClient={new QueryClient()}>
        <Page files={files} />
      </AppProviders>,
    );
  }

  it('toasts instead of opening for archives and unsupported types', async () => {
    renderPage([{ id: '1', name: 'a.rar' }, { id: '2', name: 'b.xlsx' }]);
    fireEvent.click(screen.getByRole('button', { name: 'a.rar' }));
    await waitFor(() => expect(document.body.textContent).toContain('压缩文件暂不支持预览'));
    fireEvent.click(screen.getByRole('button', { name: 'b.xlsx' }));
    await waitFor(() => expect(document.body.textContent).toContain('当前文件类型不支持预览'));
    expect(screen.queryByTestId('preview-body')).toBeNull();
  });

  it('opens videos instead of toasting them unsupported', async () => {
    vi.spyOn(api, 'get').mockImplementation((async () => ({ data: { url: '/api/attachment/stream/v?sig=1' } })) as unknown as typeof api.get);
    renderPage([{ id: 'v', name: '路演.MP4' }]);
    fireEvent.click(screen.getByRole('button', { name: '路演.MP4' }));
    await waitFor(() => expect(screen.getByTestId('preview-video').getAttribute('src')).toBe('/api/attachment/stream/v?sig=1&redirect=1'));
    expect(document.body.textContent).not.toContain('当前文件类型不支持预览');
  });

  it('opens stored files through the attachment stream with preview=1', async () => {
    const get = vi
      .spyOn(api, 'get')
      .mockImplementation((async () => ({ blob: new Blob(['img'], { type: 'image/png' }), fileName: '服务器名.png' })) as unknown as typeof api.get);
    renderPage([{ id: 'U 1', name: 'a.png' }]);
    fireEvent.click(screen.getByRole('button', { name: 'a.png' }));
    await waitFor(() => expect(screen.getByTestId('preview-image')).toBeTruthy());
    expect(get).toHaveBeenCalledWith(
      '/attachment/stream/U%201',
      expect.objectContaining({ params: { preview: 1 }, responseType: 'blob' }),
    );
    expect(screen.getByTestId('preview-title').textContent).toBe('服务器名.png');
  });
});

describe('PreviewDialog with media (streamed from a signed link, never a blob)', () => {
  const SIGNED = '/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv?expires=1893456000&acct=a1&sig=xyz';
  const MEDIA: PreviewFile[] = [
    { id: 'AbCdEfGhIjKlMnOpQrStUv', name: '路演视频.mp4' },
    { id: 'PdfPdfPdfPdfPdfPdfPdf1', name: '方案.pdf' },
    { id: 'AudioAudioAudioAudio12', name: '录音.mp3' },
  ];

  function mockApi(accessUrl: () => unknown = () => ({ url: SIGNED, name: '服务器名.mp4' })) {
    return vi.spyOn(api, 'get').mockImplementation((async (path: string, config?: { responseType?: string }) => {
      if (path === '/attachment/accessUrl') return { data: accessUrl() };
      if (config?.responseType === 'blob') return { blob: new Blob(['%PDF-1.7'], { type: 'application/pdf' }), fileName: '方案.pdf' };
      throw new Error(`unexpected ${path}`);
    }) as unknown as typeof api.get);
  }

  function renderMedia(startIndex = 0) {
    initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
    initI18n();
    function Harness() {
      const [index, setIndex] = useState(startIndex);
      return <PreviewDialog open files={MEDIA} index={index} onIndexChange={setIndex} onClose={() => {}} />;
    }
    render(
      <AppProviders queryClient={new QueryClient()}>
        <Harness />
      </AppProviders>,
    );
  }
  const video = () => screen.getByTestId('preview-video') as HTMLVideoElement;

  it('plays a video from the signed link with redirect=1, asked for by attachment path, with no blob fetch', async () => {
    const get = mockApi();
    renderMedia();
    await waitFor(() => expect(video().getAttribute('src')).toBe(`${SIGNED}&redirect=1`));
    expect(get).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledWith(
      '/attachment/accessUrl',
      expect.objectContaining({ params: { filePath: '/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv' } }),
    );
    expect(get.mock.calls.some(([, config]) => (config as { responseType?: string } | undefined)?.responseType === 'blob')).toBe(false);
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    expect(video().getAttribute('preload')).toBe('metadata');
    expect(video().hasAttribute('controls')).toBe(true);
    expect(screen.getByTestId('preview-title').textContent).toBe('服务器名.mp4');
    // The overlay stays until the player knows the video's length and size.
    expect(screen.getByTestId('preview-loading')).toBeTruthy();
    fireEvent.loadedMetadata(video());
    expect(screen.queryByTestId('preview-loading')).toBeNull();
  });

  it('shows 哦哦，渲染发生错误 when the video fails to load', async () => {
    mockApi();
    renderMedia();
    await waitFor(() => video());
    fireEvent.error(video());
    expect(screen.getByText('哦哦，渲染发生错误')).toBeTruthy();
    expect(screen.queryByTestId('preview-video')).toBeNull();
    expect(screen.queryByTestId('preview-loading')).toBeNull();
  });

  it('shows 哦哦，渲染发生错误 when no link is given', async () => {
    mockApi(() => null);
    renderMedia();
    expect(await screen.findByText('哦哦，渲染发生错误')).toBeTruthy();
    expect(screen.queryByTestId('preview-video')).toBeNull();
  });

  it('still fetches a PDF as a blob, and asks for a fresh link on coming back to the video', async () => {
    const get = mockApi();
    renderMedia();
    await waitFor(() => video());
    fireEvent.click(screen.getByRole('button', { name: '下一个' }));
    await waitFor(() => expect(screen.getByTestId('pdf-stub').dataset.url).toBe('blob:test/1'));
    expect(get).toHaveBeenLastCalledWith('/attachment/stream/PdfPdfPdfPdfPdfPdfPdf1', expect.objectContaining({ params: { preview: 1 }, responseType: 'blob' }));
    fireEvent.click(screen.getByRole('button', { name: '上一个' }));
    await waitFor(() => video());
    expect(revoked).toEqual(['blob:test/1']);
    expect(get.mock.calls.filter(([path]) => path === '/attachment/accessUrl')).toHaveLength(2);
  });

  it('plays audio the same way', async () => {
    mockApi();
    renderMedia(2);
    const audio = await screen.findByTestId('preview-audio');
    expect(audio.getAttribute('src')).toBe(`${SIGNED}&redirect=1`);
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    fireEvent.error(audio);
    expect(screen.getByText('哦哦，渲染发生错误')).toBeTruthy();
  });

  it('plays bytes the page already holds from their own blob link', async () => {
    const get = mockApi();
    initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
    initI18n();
    render(
      <AppProviders queryClient={new QueryClient()}>
        <PreviewDialog open files={[{ id: '', name: 'local.mp4', fileData: new Blob(['v']) }]} index={0} onIndexChange={() => {}} onClose={() => {}} />
      </AppProviders>,
    );
    await waitFor(() => expect(video().getAttribute('src')).toBe('blob:test/1'));
    expect(get).not.toHaveBeenCalled();
  });
});

describe('MediaPlayer link renewal', () => {
  it('asks once for a fresh link when a loaded video fails (its link expired), then shows the error', async () => {
    let n = 0;
    const get = vi.spyOn(api, 'get').mockImplementation((async () => ({ data: { url: `/api/attachment/stream/v?sig=${++n}` } })) as unknown as typeof api.get);
    initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
    initI18n();
    render(
      <AppProviders queryClient={new QueryClient()}>
        <PreviewDialog open files={[{ id: 'v', name: 'v.mp4' }]} index={0} onIndexChange={() => {}} onClose={() => {}} />
      </AppProviders>,
    );
    const video = () => screen.getByTestId('preview-video') as HTMLVideoElement;
    await waitFor(() => expect(video().getAttribute('src')).toBe('/api/attachment/stream/v?sig=1&redirect=1'));
    fireEvent.loadedMetadata(video());
    fireEvent.error(video());
    await waitFor(() => expect(video().getAttribute('src')).toBe('/api/attachment/stream/v?sig=2&redirect=1'));
    expect(get).toHaveBeenCalledTimes(2);
    expect(screen.queryByText('哦哦，渲染发生错误')).toBeNull();
    fireEvent.loadedMetadata(video());
    fireEvent.error(video());
    expect(screen.getByText('哦哦，渲染发生错误')).toBeTruthy();
    expect(get).toHaveBeenCalledTimes(2);
  });
});
