/**
 * The news body editor, built on Tiptap (ProseMirror underneath): headless, so the toolbar is
 * antd buttons and the text keeps the portal's look. Only this area imports Tiptap, so it stays
 * in the console's chunks and never reaches the home page's first load.
 *
 * Works as an antd Form control: `value` is HTML ('' when empty) and `onChange` receives the new
 * HTML. Pictures (the image button, a paste, a drop) are uploaded first and inserted by their
 * public stream path; the server's allow-list keeps exactly those.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Form, Input, Space, Spin, Tooltip } from 'antd';
import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { Placeholder } from '@tiptap/extensions';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { ImageUploadError, NEWS_IMAGE_ACCEPT, imageSrcOf, isNewsImage, uploadNewsImage } from './news-image-upload';
import './rich-text-editor.css';

export interface RichTextEditorProps {
  /** Set by Form.Item: the label's htmlFor points at the editable area. */
  id?: string;
  value?: string;
  onChange?: (html: string) => void;
  placeholder?: string;
  /** The editable area's accessible name (the field's label). */
  ariaLabel: string;
  /** Replaces the upload (tests). Resolves the image's src. */
  uploadImage?: (file: File) => Promise<string>;
  disabled?: boolean;
}

/** Addresses a link may take: the same the server's allow-list keeps. */
export const LINK_PATTERN = /^(https?:\/\/\S+|mailto:\S+|\/(?![/\\])\S*|#\S*)$/i;

const defaultUpload = async (file: File) => imageSrcOf(await uploadNewsImage(file));

export function RichTextEditor({ id, value, onChange, placeholder, ariaLabel, uploadImage = defaultUpload, disabled = false }: RichTextEditorProps) {
  const { t } = useTranslation('newsAdmin');
  const { t: tf } = useTranslation('files');
  const { message } = useFeedback();
  const [uploading, setUploading] = useState(0);
  const [linkOpen, setLinkOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  // The editor is created once; its handlers read the latest props through these.
  const latest = useRef({ onChange, uploadImage });
  latest.current = { onChange, uploadImage };
  /** The HTML last sent out, so a value coming back from the form is not set again (the cursor would jump). */
  const emitted = useRef(value ?? '');

  const editorRef = useRef<Editor | null>(null);
  const insertImages = (files: File[], at?: number) => {
    for (const file of files) {
      setUploading((n) => n + 1);
      latest.current
        .uploadImage(file)
        .then((src) => {
          const editor = editorRef.current;
          if (!editor || editor.isDestroyed) return;
          const node = { type: 'image', attrs: { src, alt: file.name.replace(/\.[^.]*$/, '') || t('editor.imageAlt') } };
          if (at === undefined) editor.chain().focus().insertContent(node).run();
          else editor.chain().focus().insertContentAt(at, node).run();
        })
        .catch((err: unknown) => {
          const reason = err instanceof ImageUploadError ? tf(`upload.status.${err.status}`) : err instanceof Error ? err.message : '';
          void message.error(t('editor.uploadFailed', { reason }));
        })
        .finally(() => setUploading((n) => n - 1));
    }
  };
  const insertRef = useRef(insertImages);
  insertRef.current = insertImages;

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        codeBlock: false,
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'], isAllowedUri: (url) => LINK_PATTERN.test(url) },
      }),
      Image.configure({ allowBase64: false }),
      Placeholder.configure({ placeholder: placeholder ?? '' }),
    ],
    content: value ?? '',
    editable: !disabled,
    editorProps: {
      attributes: {
        ...(id ? { id } : {}),
        'aria-label': ariaLabel,
        'aria-multiline': 'true',
        role: 'textbox',
        class: 'rich-editor__content',
      },
      handlePaste: (_view, event) => {
        const files = Array.from(event.clipboardData?.files ?? []).filter(isNewsImage);
        if (!files.length) return false;
        event.preventDefault();
        insertRef.current(files);
        return true;
      },
      handleDrop: (view, event, _slice, moved) => {
        if (moved) return false;
        const files = Array.from(event.dataTransfer?.files ?? []).filter(isNewsImage);
        if (!files.length) return false;
        event.preventDefault();
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        insertRef.current(files, at);
        return true;
      },
    },
    onUpdate: ({ editor: current }) => {
      // The trailing empty paragraph is the editor's place for the cursor, not the author's text.
      const html = current.isEmpty ? '' : current.getHTML().replace(/(<p><\/p>)+$/, '');
      // Transactions that leave the HTML as it was (a re-mount, a normalisation) are no edit: a
      // change sent here would mark the form dirty on opening.
      if (html === emitted.current) return;
      emitted.current = html;
      latest.current.onChange?.(html);
    },
  });
  editorRef.current = editor;

  // A value set from outside (the article loaded, the form reset) replaces the document.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const next = value ?? '';
    if (next === emitted.current) return;
    emitted.current = next;
    editor.commands.setContent(next, { emitUpdate: false });
  }, [editor, value]);

  // Without an update event: Tiptap's default sends one, and the editor's HTML (`<img …>`) differs
  // from the stored one (`<img … />`), so opening an article would count as an edit.
  useEffect(() => {
    if (editor && !editor.isDestroyed && editor.isEditable === disabled) editor.setEditable(!disabled, false);
  }, [editor, disabled]);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      blockquote: e.isActive('blockquote'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  const chain = () => editor.chain().focus();
  type ToolKey = 'bold' | 'italic' | 'underline' | 'strike' | 'h2' | 'h3' | 'bulletList' | 'orderedList' | 'blockquote';
  // glyph: text the button shows instead of an icon; its accessible name starts with it (WCAG 2.5.3, label in name).
  const tools: { key: ToolKey; icon: React.ReactNode; glyph?: string; run: () => void }[] = [
    { key: 'bold', icon: <BoldOutlined />, run: () => chain().toggleBold().run() },
    { key: 'italic', icon: <ItalicOutlined />, run: () => chain().toggleItalic().run() },
    { key: 'underline', icon: <UnderlineOutlined />, run: () => chain().toggleUnderline().run() },
    { key: 'strike', icon: <StrikethroughOutlined />, run: () => chain().toggleStrike().run() },
    { key: 'h2', icon: <span className="rich-editor__glyph">H2</span>, glyph: 'H2', run: () => chain().toggleHeading({ level: 2 }).run() },
    { key: 'h3', icon: <span className="rich-editor__glyph">H3</span>, glyph: 'H3', run: () => chain().toggleHeading({ level: 3 }).run() },
    { key: 'bulletList', icon: <UnorderedListOutlined />, run: () => chain().toggleBulletList().run() },
    { key: 'orderedList', icon: <OrderedListOutlined />, run: () => chain().toggleOrderedList().run() },
    { key: 'blockquote', icon: <span className="rich-editor__glyph" aria-hidden>“”</span>, run: () => chain().toggleBlockquote().run() },
  ];

  type ButtonKey = ToolKey | 'link' | 'image' | 'undo' | 'redo';
  const toolButton = (key: ButtonKey, icon: React.ReactNode, onClick: () => void, options: { pressed?: boolean; disabled?: boolean; glyph?: string } = {}) => (
    <Tooltip key={key} title={t(`editor.${key}`)}>
      <Button
        type={options.pressed ? 'primary' : 'text'}
        size="small"
        icon={icon}
        aria-label={options.glyph ? `${options.glyph} ${t(`editor.${key}`)}` : t(`editor.${key}`)}
        aria-pressed={options.pressed === undefined ? undefined : options.pressed}
        disabled={disabled || options.disabled}
        onClick={onClick}
        data-testid={`editor-${key}`}
      />
    </Tooltip>
  );

  return (
    <div className={`rich-editor${disabled ? ' rich-editor--disabled' : ''}`} data-testid="rich-editor">
      <div className="rich-editor__toolbar" role="toolbar" aria-label={t('editor.toolbar')}>
        <Space size={2} wrap>
          {tools.map((tool) => toolButton(tool.key, tool.icon, tool.run, { pressed: state?.[tool.key] ?? false, glyph: tool.glyph }))}
          {toolButton('link', <LinkOutlined />, () => setLinkOpen(true), { pressed: state?.link ?? false })}
          {toolButton('image', <PictureOutlined />, () => fileInput.current?.click())}
          {toolButton('undo', <UndoOutlined />, () => chain().undo().run(), { disabled: !state?.canUndo })}
          {toolButton('redo', <RedoOutlined />, () => chain().redo().run(), { disabled: !state?.canRedo })}
          {uploading > 0 && (
            <span className="rich-editor__uploading" role="status">
              <Spin size="small" /> {t('editor.uploading')}
            </span>
          )}
        </Space>
        <input
          ref={fileInput}
          type="file"
          accept={NEWS_IMAGE_ACCEPT}
          multiple
          hidden
          aria-hidden
          tabIndex={-1}
          data-testid="editor-image-input"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (files.length) insertImages(files);
          }}
        />
      </div>
      <EditorContent editor={editor} className="rich-editor__body" />
      <LinkDialog
        open={linkOpen}
        initial={(editor?.getAttributes('link').href as string | undefined) ?? ''}
        onClose={() => setLinkOpen(false)}
        onSubmit={(href) => {
          setLinkOpen(false);
          if (!href) chain().extendMarkRange('link').unsetLink().run();
          else chain().extendMarkRange('link').setLink({ href, target: /^https?:/i.test(href) ? '_blank' : null }).run();
        }}
      />
    </div>
  );
}

/** Asks for a link's address; an empty one removes the link. */
function LinkDialog({ open, initial, onClose, onSubmit }: { open: boolean; initial: string; onClose(): void; onSubmit(href: string): void }) {
  const { t } = useTranslation('newsAdmin');
  const [form] = Form.useForm<{ href: string }>();
  useEffect(() => {
    if (open) form.setFieldsValue({ href: initial });
  }, [open, initial, form]);
  return (
    <AppDialog
      open={open}
      title={t('editor.linkTitle')}
      onCancel={onClose}
      onOk={() =>
        void form.validateFields().then(
          (v) => onSubmit(v.href?.trim() ?? ''),
          () => {
            // The refusal shows under the field.
          },
        )
      }
      footer={(original) => (
        <>
          {initial && (
            <Button danger onClick={() => onSubmit('')} data-testid="link-remove">
              {t('editor.linkRemove')}
            </Button>
          )}
          {original}
        </>
      )}
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={(v) => onSubmit(v.href?.trim() ?? '')}>
        <Form.Item
          name="href"
          label={t('editor.linkUrl')}
          rules={[{ validator: async (_r, v: string | undefined) => { if (v?.trim() && !LINK_PATTERN.test(v.trim())) throw new Error(t('editor.linkInvalid')); } }]}
        >
          <Input placeholder={t('editor.linkPlaceholder')} autoFocus />
        </Form.Item>
      </Form>
    </AppDialog>
  );
}
