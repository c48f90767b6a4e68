/** The Tiptap editor of 新闻资讯, real ProseMirror under happy-dom: toolbar, value, pictures. */
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderKit } from '../../../components/admin-kit/render-kit';
import { RichTextEditor } from './RichTextEditor';
import { ImageUploadError, imageSrcOf, isNewsImage, uploadNewsImage, withImageName } from './news-image-upload';
import type { UploadTransport } from '../../../lib/upload';

const SLOW = { timeout: 20_000 };

function Harness({ initial, onChange, upload }: { initial: string; onChange: (html: string) => void; upload?: (file: File) => Promise<string> }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <RichTextEditor
        ariaLabel="正文"
        value={value}
        uploadImage={upload}
        onChange={(html) => {
          setValue(html);
          onChange(html);
        }}
      />
      <button type="button" onClick={() => setValue('<p>外部设置</p>')}>
        set-from-outside
      </button>
    </>
  );
}

const editable = () => screen.getByRole('textbox', { name: '正文' });

describe('RichTextEditor', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the value, names every toolbar button, and formats the text at the cursor', async () => {
    const onChange = vi.fn();
    renderKit(<Harness initial="<p>大赛通知</p>" onChange={onChange} />);
    const area = await screen.findByRole('textbox', { name: '正文' }, SLOW);
    expect(area.textContent).toBe('大赛通知');
    const toolbar = screen.getByRole('toolbar', { name: '正文格式' });
    for (const name of ['加粗', '斜体', '下划线', '删除线', 'H2 标题 2', 'H3 标题 3', '无序列表', '有序列表', '引用', '链接', '插入图片', '撤销', '重做']) {
      expect(within(toolbar).getByRole('button', { name })).toBeTruthy();
    }
    expect(within(toolbar).getByRole('button', { name: '撤销' }).hasAttribute('disabled')).toBe(true);
    // Opening sends nothing back: the form would count it as an edit.
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.click(within(toolbar).getByRole('button', { name: 'H2 标题 2' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<h2>大赛通知</h2>'));
    expect(within(toolbar).getByRole('button', { name: 'H2 标题 2' }).getAttribute('aria-pressed')).toBe('true');
    // One change per history step (changes within half a second make one undo step).
    fireEvent.click(within(toolbar).getByRole('button', { name: '撤销' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>大赛通知</p>'));
    fireEvent.click(within(toolbar).getByRole('button', { name: '重做' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<h2>大赛通知</h2>'));
    fireEvent.click(within(toolbar).getByRole('button', { name: '无序列表' }));
    await waitFor(() => expect(onChange.mock.lastCall?.[0]).toContain('<ul><li>'));
    // A mark with nothing selected waits for the next typing: the button shows it as on.
    fireEvent.click(within(toolbar).getByRole('button', { name: '加粗' }));
    await waitFor(() => expect(within(toolbar).getByRole('button', { name: '加粗' }).getAttribute('aria-pressed')).toBe('true'));
  });

  it('links: the dialog refuses a javascript: address and takes a safe one', async () => {
    const onChange = vi.fn();
    renderKit(<Harness initial="<p>医保局</p>" onChange={onChange} />);
    await screen.findByRole('textbox', { name: '正文' }, SLOW);
    fireEvent.click(screen.getByRole('button', { name: '链接' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('链接地址'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText('请输入以 http://、https://、mailto: 或 / 开头的地址')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('链接地址'), { target: { value: 'https://www.nhsa.gov.cn/' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    // The dialog closes (happy-dom never ends antd's leave animation, so the class tells).
    await waitFor(() => expect(dialog.className).toMatch(/-leave/));
  });

  it('takes a value set from outside without sending it back', async () => {
    const onChange = vi.fn();
    renderKit(<Harness initial="<p>一</p>" onChange={onChange} />);
    await screen.findByRole('textbox', { name: '正文' }, SLOW);
    fireEvent.click(screen.getByRole('button', { name: 'set-from-outside' }));
    await waitFor(() => expect(editable().textContent).toBe('外部设置'));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('opening a body as the server writes it (void tags as <img … />) is no edit', async () => {
    // The sanitiser writes `<img … />`, the editor `<img …>`: an update sent on opening would mark
    // the form dirty and the leave guard would stop the move to the list after 发布 (seen in e2e).
    const onChange = vi.fn();
    renderKit(<Harness initial={'<p>图文</p><img src="/api/attachment/stream/AbC?preview=1" alt="现场" />'} onChange={onChange} />);
    await screen.findByRole('textbox', { name: '正文' }, SLOW);
    await waitFor(() => expect(editable().querySelector('img')).not.toBeNull());
    expect(onChange).not.toHaveBeenCalled();
  });

  it('uploads a picked picture and inserts it by its stream path', async () => {
    const onChange = vi.fn();
    const upload = vi.fn(async () => '/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv?preview=1');
    renderKit(<Harness initial="<p>图文</p>" onChange={onChange} upload={upload} />);
    await screen.findByRole('textbox', { name: '正文' }, SLOW);
    const picture = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], '现场.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('editor-image-input'), { target: { files: [picture] } });
    await waitFor(() => expect(upload).toHaveBeenCalledWith(picture));
    await waitFor(() => expect(onChange.mock.lastCall?.[0]).toContain('<img src="/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv?preview=1" alt="现场">'));
  });

  it('a pasted picture is uploaded and inserted; pasted text is left to the editor', async () => {
    const onChange = vi.fn();
    const upload = vi.fn(async () => '/api/attachment/stream/PastedPastedPastedPast?preview=1');
    renderKit(<Harness initial="<p>x</p>" onChange={onChange} upload={upload} />);
    const area = await screen.findByRole('textbox', { name: '正文' }, SLOW);
    const picture = new File([new Uint8Array([1])], 'image.png', { type: 'image/png' });
    await act(async () => {
      fireEvent.paste(area, { clipboardData: { files: [picture], getData: () => '', types: ['Files'], items: [] } });
    });
    await waitFor(() => expect(upload).toHaveBeenCalledWith(picture));
    await waitFor(() => expect(onChange.mock.lastCall?.[0]).toContain('PastedPastedPastedPast'));
  });
});

describe('news images', () => {
  const transport = (answer: () => Promise<unknown>): UploadTransport => ({
    uploadPiece: vi.fn(answer) as UploadTransport['uploadPiece'],
    receivedPieces: vi.fn(async () => []),
  });

  it('uploads through the uploader engine with origin NEWS and gives the inline path', async () => {
    const stored = { id: 'AbCdEfGhIjKlMnOpQrStUv', filePath: '/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv', fileName: 'a.png', fileSize: 3 };
    const t = transport(async () => stored);
    const result = await uploadNewsImage(new File(['abc'], 'a.png', { type: 'image/png' }), t);
    expect(result).toEqual(stored);
    expect(imageSrcOf(result)).toBe('/api/attachment/stream/AbCdEfGhIjKlMnOpQrStUv?preview=1');
    expect((t.uploadPiece as ReturnType<typeof vi.fn>).mock.calls[0]![0]).toMatchObject({ origin: 'NEWS', name: 'a.png', chunks: 1, chunk: 0 });
  });

  it('refuses other types at once and reports a failed upload', async () => {
    const t = transport(async () => {
      throw new Error('network');
    });
    await expect(uploadNewsImage(new File(['x'], 'a.svg', { type: 'image/svg+xml' }), t)).rejects.toMatchObject({ status: 'error_noSupportFile' });
    expect(t.uploadPiece).not.toHaveBeenCalled();
    const failed = uploadNewsImage(new File(['x'], 'a.jpg', { type: 'image/jpeg' }), t);
    await expect(failed).rejects.toBeInstanceOf(ImageUploadError);
    await expect(failed).rejects.toMatchObject({ status: 'error_upload' });
  });

  it('names a nameless pasted picture after its type; tells pictures from other files', () => {
    expect(withImageName(new File(['x'], 'blob', { type: 'image/png' })).name).toBe('blob.png');
    expect(withImageName(new File(['x'], '', { type: 'image/jpeg' })).name).toBe('image.jpg');
    expect(withImageName(new File(['x'], 'shot.PNG', { type: 'image/png' })).name).toBe('shot.PNG');
    expect(isNewsImage(new File(['x'], 'a.pdf', { type: 'application/pdf' }))).toBe(false);
    expect(isNewsImage(new File(['x'], 'a.webp', { type: '' }))).toBe(true);
  });
});
