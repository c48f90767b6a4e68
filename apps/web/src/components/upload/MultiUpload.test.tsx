import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { Button, Form } from 'antd';
import type { AxiosProgressEvent } from 'axios';
import { AppProviders } from '../../app/providers';
import { initI18n } from '../../i18n';
import type { CallConfig } from '../../api';
import { api } from '../../lib/api';
import { initPreferences } from '../../lib/preferences';
import { ok, refused } from '../../test/api-mocks';
import { createUploadTransport, type UploadValueItem } from '../../lib/upload';
import { MultiUpload, type MultiUploadProps } from './MultiUpload';

interface PostCall {
  url: string;
  /** The piece's fields, sent as the query string. */
  fields: Record<string, string>;
  /** The piece's bytes, sent as the raw body. */
  body: Blob;
  config: CallConfig;
  resolve(data: unknown): void;
  reject(err: unknown): void;
}

/** Replaces the piece upload call of the API client; each call waits for the test. */
function mockPieceUpload() {
  const calls: PostCall[] = [];
  const spy = vi.spyOn(api, 'post').mockImplementation(((url: string, data: unknown, config: CallConfig = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const call: PostCall = {
        url,
        fields: config.params as Record<string, string>,
        body: data as Blob,
        config,
        resolve: (d) => resolve(ok(d)),
        reject,
      };
      calls.push(call);
      config.signal?.addEventListener?.('abort', () => reject(Object.assign(new Error('cancelRequest'), { cancelRequest: true })));
    })) as unknown as typeof api.post);
  // The resume check of a retried upload: the server holds none of its pieces.
  const status = vi.spyOn(api, 'get').mockImplementation((async () => ok({ received: [] })) as typeof api.get);
  const nameOf = (call: PostCall) => call.fields.name;
  const pending = (name: string) => calls.filter((c) => nameOf(c) === name);
  /** Answers the (single) piece of `name` with the stored file. */
  const store = async (name: string, size = 10) => {
    await act(async () => {
      for (const call of pending(name)) {
        call.resolve({ complete: true, id: call.fields.id, uniqueNo: `U-${name}`, name, size, filePath: `/api/attachment/stream/U-${name}` });
      }
    });
  };
  return { calls, spy, status, pending, store };
}

/** The piece path (a disk store); the direct path has its own tests (lib/upload/direct-upload.test.ts). */
let piecesOnly: ReturnType<typeof createUploadTransport> | null = null;
const pieceTransport = () => (piecesOnly ??= createUploadTransport(api));

function file(name: string, size = 10): File {
  return new File([new Uint8Array(size)], name, { type: '', lastModified: 1 });
}

function renderUpload(props: Partial<MultiUploadProps> = {}) {
  initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
  initI18n();
  const onChange = vi.fn<(value: UploadValueItem[]) => void>();
  const result = render(
    <AppProviders queryClient={new QueryClient()}>
      <MultiUpload onChange={onChange} transport={pieceTransport()} {...props} />
    </AppProviders>,
  );
  const input = () => screen.getByTestId('upload-input') as HTMLInputElement;
  const pickFiles = async (...files: File[]) => {
    await act(async () => {
      fireEvent.change(input(), { target: { files } });
    });
  };
  const row = (name: string) => screen.getByText(name).closest('[role="listitem"]') as HTMLElement;
  const stateOf = (name: string) => within(row(name)).getByTestId('upload-state').textContent;
  return { ...result, onChange, input, pickFiles, row, stateOf };
}

describe('MultiUpload', () => {
  it('shows each status with the spec texts: 排队中, 上传进度, 数量超限, 不支持的文件上传类型, 大小超限', async () => {
    const net = mockPieceUpload();
    const { pickFiles, stateOf, row } = renderUpload({ accept: '.pdf,.png', maxSize: 1024, maxCount: 3 });
    await pickFiles(file('a.pdf'), file('b.exe'), file('c.pdf', 2048), file('d.PNG'), file('e.pdf'), file('f.pdf'));

    expect(stateOf('a.pdf')).toBe('上传进度 0%');
    expect(stateOf('d.PNG')).toBe('上传进度 0%');
    expect(stateOf('e.pdf')).toBe('排队中');
    expect(stateOf('b.exe')).toBe('不支持的文件上传类型');
    expect(stateOf('c.pdf')).toBe('大小超限');
    expect(stateOf('f.pdf')).toBe('数量超限');
    // Refusals are announced to screen readers; progress is not.
    expect(within(row('b.exe')).getByRole('alert').textContent).toBe('不支持的文件上传类型');
    expect(within(row('a.pdf')).queryByRole('alert')).toBeNull();
    // Sizes go through formatFileSize.
    expect(within(row('c.pdf')).getByText('2 KB')).toBeTruthy();
    expect(within(row('a.pdf')).getByText('10 Bytes')).toBeTruthy();

    // Only two files upload at once; each call carries the spec's fields in the query, the bytes as the body.
    expect(net.calls.map((c) => c.fields.name)).toEqual(['a.pdf', 'd.PNG']);
    const { fields, body, config } = net.calls[0]!;
    expect(net.calls[0]!.url).toBe('/attachment/piece/upload');
    expect([fields.origin, fields.chunks, fields.chunk, typeof fields.id]).toEqual(['OTHER', '1', '0', 'string']);
    expect(body).toBeInstanceOf(Blob);
    expect(body.size).toBe(10);
    expect(config.headers).toEqual({ 'Content-Type': 'application/octet-stream' });

    // Progress follows the bytes sent, held at 99 until the server answers.
    await act(async () => {
      net.calls[0]!.config.onUploadProgress?.({ loaded: 1, total: 2 } as AxiosProgressEvent);
    });
    expect(stateOf('a.pdf')).toBe('上传进度 50%');
    await act(async () => {
      net.calls[0]!.config.onUploadProgress?.({ loaded: 2, total: 2 } as AxiosProgressEvent);
    });
    expect(stateOf('a.pdf')).toBe('上传进度 99%');
  });

  it('puts a stored file into the value (onChange) and starts the queued one', async () => {
    const net = mockPieceUpload();
    const { pickFiles, stateOf, onChange, row } = renderUpload({ origin: 'TEAM' });
    await pickFiles(file('a.pdf'), file('b.pdf'), file('c.pdf'));
    expect(stateOf('c.pdf')).toBe('排队中');
    await net.store('a.pdf');
    expect(onChange).toHaveBeenLastCalledWith([
      { uid: expect.any(String), filePath: '/api/attachment/stream/U-a.pdf', fileSize: 10, fileName: 'a.pdf', id: 'U-a.pdf' },
    ]);
    expect(net.calls[0]!.fields.origin).toBe('TEAM');
    // The stored file is now a clickable name without a state line; the queued one started.
    expect(within(row('a.pdf')).queryByTestId('upload-state')).toBeNull();
    expect(within(row('a.pdf')).getByRole('button', { name: 'a.pdf' })).toBeTruthy();
    expect(stateOf('c.pdf')).toBe('上传进度 0%');
    await net.store('b.pdf');
    expect(onChange.mock.lastCall![0].map((v) => v.fileName)).toEqual(['a.pdf', 'b.pdf']);
  });

  it('shows 上传失败! when a piece fails, 已取消! when cancelled, and retries either', async () => {
    const net = mockPieceUpload();
    const { pickFiles, stateOf, row } = renderUpload();
    await pickFiles(file('a.pdf'), file('b.pdf'));
    await act(async () => {
      net.pending('a.pdf')[0]!.reject(refused('上传失败!'));
    });
    expect(stateOf('a.pdf')).toBe('上传失败!');

    fireEvent.click(within(row('b.pdf')).getByRole('button', { name: '取消上传' }));
    expect(stateOf('b.pdf')).toBe('已取消!');
    expect((net.pending('b.pdf')[0]!.config.signal as AbortSignal).aborted).toBe(true);

    // Retry: the same upload id again (so the server's pieces are reused).
    const firstId = net.pending('b.pdf')[0]!.fields.id;
    await act(async () => {
      fireEvent.click(within(row('b.pdf')).getByRole('button', { name: '重新上传' }));
    });
    expect(stateOf('b.pdf')).toBe('上传进度 0%');
    expect(net.pending('b.pdf').at(-1)!.fields.id).toBe(firstId);
    expect(net.status).toHaveBeenCalledWith('/attachment/piece/status', expect.objectContaining({ params: { id: firstId } }));

    // An error row can be dismissed from the list.
    fireEvent.click(within(row('a.pdf')).getByRole('button', { name: '移除' }));
    expect(screen.queryByText('a.pdf')).toBeNull();
  });

  it('deleting a waiting file shows 已删除! and frees its place; deleting a stored one updates the value', async () => {
    mockPieceUpload();
    const value: UploadValueItem[] = [{ uid: 'v1', fileName: '旧文件.pdf', filePath: '/p/1', fileSize: 2048, id: 'U1' }];
    const { pickFiles, stateOf, row, onChange } = renderUpload({ value, maxCount: 4 });
    expect(within(row('旧文件.pdf')).getByText('2 KB')).toBeTruthy();
    await pickFiles(file('a.pdf'), file('b.pdf'), file('c.pdf'));
    expect(stateOf('c.pdf')).toBe('排队中');
    fireEvent.click(within(row('c.pdf')).getByRole('button', { name: '删除' }));
    expect(stateOf('c.pdf')).toBe('已删除!');

    fireEvent.click(within(row('旧文件.pdf')).getByRole('button', { name: '删除' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('warns 数量超限 instead of opening the picker when full', async () => {
    mockPieceUpload();
    const click = vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(() => {});
    const value: UploadValueItem[] = [{ uid: 'v1', fileName: 'x.pdf', filePath: '/p/1', fileSize: 1 }];
    const { rerender } = renderUpload({ value, maxCount: 2 });
    fireEvent.click(screen.getByRole('button', { name: /上传文件/ }));
    expect(click).toHaveBeenCalledTimes(1);

    rerender(
      <AppProviders queryClient={new QueryClient()}>
        <MultiUpload value={[...value, { uid: 'v2', fileName: 'y.pdf', filePath: '/p/2', fileSize: 1 }]} maxCount={2} transport={pieceTransport()} />
      </AppProviders>,
    );
    fireEvent.click(screen.getByRole('button', { name: /上传文件/ }));
    expect(click).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(document.body.textContent).toContain('数量超限'));
  });

  it('takes dropped files in drag mode', async () => {
    const net = mockPieceUpload();
    renderUpload({ drag: true });
    expect(screen.getByText('点击或将文件拖拽到此区域上传')).toBeTruthy();
    await act(async () => {
      fireEvent.drop(screen.getByTestId('upload-drop'), { dataTransfer: { files: [file('dropped.pdf')] } });
    });
    expect(net.calls.map((c) => c.fields.name)).toEqual(['dropped.pdf']);
  });

  it('aborts active uploads when the screen is left', async () => {
    const net = mockPieceUpload();
    const { pickFiles, unmount } = renderUpload();
    await pickFiles(file('a.pdf'), file('b.pdf'), file('c.pdf'));
    const signals = net.calls.map((c) => c.config.signal as AbortSignal);
    expect(signals).toHaveLength(2);
    unmount();
    expect(signals.every((s) => s.aborted)).toBe(true);
    await act(async () => {});
    expect(net.calls).toHaveLength(2);
  });

  it('works as an antd Form control', async () => {
    const net = mockPieceUpload();
    initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
    initI18n();
    const onFinish = vi.fn();
    render(
      <AppProviders queryClient={new QueryClient()}>
        <Form onFinish={onFinish} initialValues={{ files: [{ uid: 'v1', fileName: '已有.pdf', filePath: '/p/1', fileSize: 1 }] }}>
          <Form.Item name="files" label="附件">
            <MultiUpload transport={pieceTransport()} />
          </Form.Item>
          <Button htmlType="submit">提交</Button>
        </Form>
      </AppProviders>,
    );
    expect(screen.getByText('已有.pdf')).toBeTruthy();
    await act(async () => {
      fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [file('新.pdf')] } });
    });
    await net.store('新.pdf');
    fireEvent.click(screen.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(onFinish).toHaveBeenCalled());
    expect(onFinish.mock.calls[0]![0].files.map((f: UploadValueItem) => f.fileName)).toEqual(['已有.pdf', '新.pdf']);
  });

  it('keeps working under StrictMode (whose trial unmount destroys the first queue)', async () => {
    const net = mockPieceUpload();
    initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
    initI18n();
    render(
      <StrictMode>
        <AppProviders queryClient={new QueryClient()}>
          <MultiUpload transport={pieceTransport()} />
        </AppProviders>
      </StrictMode>,
    );
    await act(async () => {
      fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [file('a.pdf')] } });
    });
    expect(screen.getByTestId('upload-state').textContent).toBe('上传进度 0%');
    expect(net.calls).toHaveLength(1);
  });

  it('opens a stored file in the preview dialog when its name is clicked', async () => {
    mockPieceUpload();
    const get = vi
      .spyOn(api, 'get')
      .mockImplementation((async () => ({ blob: new Blob(['%PDF']), fileName: null })) as unknown as typeof api.get);
    const value: UploadValueItem[] = [
      { uid: 'v1', fileName: '图.png', filePath: '/api/attachment/stream/U1', fileSize: 3, id: 'U1' },
      { uid: 'v2', fileName: '包.zip', filePath: '/api/attachment/stream/U2', fileSize: 3, id: 'U2' },
    ];
    renderUpload({ value });
    fireEvent.click(screen.getByRole('button', { name: '包.zip' }));
    await waitFor(() => expect(document.body.textContent).toContain('压缩文件暂不支持预览'));
    expect(screen.queryByTestId('preview-body')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '图.png' }));
    await waitFor(() => expect(screen.getByTestId('preview-image')).toBeTruthy());
    expect(get).toHaveBeenCalledWith('/attachment/stream/U1', expect.objectContaining({ params: { preview: 1 } }));
  });

  it('shows English texts in English', async () => {
    mockPieceUpload();
    initPreferences({ search: '?lang=en', storage: localStorage, languages: ['en'] });
    initI18n();
    render(
      <AppProviders queryClient={new QueryClient()}>
        <MultiUpload accept=".pdf" transport={pieceTransport()} />
      </AppProviders>,
    );
    await act(async () => {
      fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [file('x.exe')] } });
    });
    expect(screen.getByTestId('upload-state').textContent).toBe('File type not supported');
  });
});
