/**
 * The multi-file uploader (docs/uploader.md): pick or drop files, see each one's
 * state in the list, cancel, delete, retry. Works as an antd Form control: `value` is the
 * list of stored files and `onChange` receives the new list when a file is stored or deleted.
 * The queue itself (concurrency, pieces, resume) is UploadQueue in lib/upload.
 */
import { useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Button, Progress, Tooltip } from 'antd';
import {
  CloseCircleOutlined,
  CloseOutlined,
  DeleteOutlined,
  FileOutlined,
  InboxOutlined,
  ReloadOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { UPLOAD_LIST, formatFileSize, type AttachmentOrigin } from '@contest/shared';
import { acceptAttribute, parseAccept, type UploadEntry, type UploadTransport, type UploadValueItem } from '../../lib/upload';
import { usePreviewDialog, type PreviewFile } from '../preview';
import { useUploadQueue } from './use-upload-queue';
import './multi-upload.css';
import { useFeedback } from '../feedback';

export interface MultiUploadProps {
  /** Set by Form.Item: the label's htmlFor points at the file input. */
  id?: string;
  value?: UploadValueItem[];
  onChange?: (value: UploadValueItem[]) => void;
  /** The attachment origin sent with every piece; OTHER by default (docs/files.md, "Chunked upload protocol"). */
  origin?: AttachmentOrigin;
  /** Accepted extensions, comma-separated (".pdf,.docx"); everything when absent. */
  accept?: string;
  /** Largest file in bytes; unlimited when absent or 0. */
  maxSize?: number;
  /** Most files (value + queued + uploading); unlimited when absent or 0. */
  maxCount?: number;
  /** A drop zone instead of a button. */
  drag?: boolean;
  disabled?: boolean;
  /**
   * The page's own wording of the rules under the picker, shown instead of the generated line
   * (formats, size, count): both together would say the same thing twice.
   */
  tip?: ReactNode;
  /** Clicking a stored file's name; opens the preview dialog by default. */
  onPreview?: (item: UploadValueItem, value: UploadValueItem[]) => void;
  /** Replaces the network (tests, or a page with its own upload call). */
  transport?: UploadTransport;
}

const NO_FILES: UploadValueItem[] = [];

export function toPreviewFile(item: UploadValueItem): PreviewFile {
  return { id: item.id ?? '', name: item.fileName, filePath: item.filePath };
}

export function MultiUpload({
  id,
  value,
  onChange,
  origin = 'OTHER',
  accept,
  maxSize,
  maxCount,
  drag = false,
  disabled = false,
  tip,
  onPreview,
  transport,
}: MultiUploadProps) {
  const { t } = useTranslation('files');
  const { message } = useFeedback();
  const { preview, holder } = usePreviewDialog();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  // Uncontrolled use keeps its own list; a Form passes value/onChange.
  const [innerValue, setInnerValue] = useState<UploadValueItem[]>(NO_FILES);
  const current = value ?? innerValue;
  // Two files finishing in the same tick must both land: each change builds on the last one.
  const valueRef = useRef(current);
  valueRef.current = current;
  const commit = (next: UploadValueItem[]) => {
    valueRef.current = next;
    if (value === undefined) setInnerValue(next);
    onChange?.(next);
  };

  const rule = useMemo(() => parseAccept(accept), [accept]);
  const { queue, entries } = useUploadQueue({
    origin,
    accept: rule,
    maxSize,
    maxCount,
    transport,
    valueCount: () => valueRef.current.length,
    onUploaded: (entry, stored) =>
      commit([
        ...valueRef.current,
        { uid: entry.uid, filePath: stored.filePath, fileSize: stored.fileSize, fileName: stored.fileName, id: stored.id },
      ]),
  });

  const pick = () => {
    if (disabled) return;
    if (queue.isFull()) {
      void message.warning(t('upload.status.error_exceedUploadMaxNum'));
      return;
    }
    inputRef.current?.click();
  };

  const addFiles = (files: FileList | null) => {
    if (!files || files.length === 0 || disabled) return;
    queue.add(Array.from(files));
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };

  const deleteStored = (item: UploadValueItem) => {
    commit(valueRef.current.filter((v) => v.uid !== item.uid));
    queue.markDeleted(item);
  };

  const openPreview = (item: UploadValueItem) => {
    if (onPreview) {
      onPreview(item, current);
      return;
    }
    preview(current.map(toPreviewFile), current.indexOf(item));
  };

  const tips = [
    rule && t('upload.tipAccept', { accept: acceptAttribute(rule)!.split(',').join(' ') }),
    maxSize ? t('upload.tipSize', { size: formatFileSize(maxSize) }) : null,
    maxCount ? t('upload.tipCount', { count: maxCount }) : null,
  ].filter(Boolean);
  const tipLine = (tips.length > 0 || tip) && <div className="multi-upload__tip">{tip ?? tips.join('，')}</div>;

  return (
    <div className={`multi-upload${disabled ? ' multi-upload--disabled' : ''}`} data-testid="multi-upload">
      <input
        ref={inputRef}
        id={id}
        type="file"
        multiple
        hidden
        accept={acceptAttribute(rule)}
        disabled={disabled}
        data-testid="upload-input"
        onChange={(event) => {
          addFiles(event.currentTarget.files);
          // Picking the same file again (a retry after a failure) must fire change again.
          event.currentTarget.value = '';
        }}
      />
      {drag ? (
        <div
          className={`multi-upload__drop${dragging ? ' multi-upload__drop--over' : ''}`}
          role="button"
          tabIndex={disabled ? -1 : 0}
          aria-disabled={disabled}
          data-testid="upload-drop"
          onClick={pick}
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === ' ') {
              event.preventDefault();
              pick();
            }
          }}
          onDragOver={(event) => {
            event.preventDefault();
            if (!disabled) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <InboxOutlined className="multi-upload__drop-icon" />
          <div>{t('upload.dragHint')}</div>
          {tipLine}
        </div>
      ) : (
        <div className="multi-upload__picker">
          <Button icon={<UploadOutlined />} onClick={pick} disabled={disabled}>
            {t('upload.select')}
          </Button>
          {tipLine}
        </div>
      )}

      {(current.length > 0 || entries.length > 0) && (
        <div
          className="multi-upload__list"
          role="list"
          aria-label={t('upload.listLabel')}
          style={{ maxHeight: UPLOAD_LIST.height }}
        >
          {current.map((item) => (
            <div
              key={item.uid}
              role="listitem"
              className="multi-upload__row"
              data-status="ok"
              style={{ height: UPLOAD_LIST.rowHeight }}
            >
              <FileOutlined className="multi-upload__icon" />
              <div className="multi-upload__main">
                <div className="multi-upload__line">
                  <button type="button" className="multi-upload__name multi-upload__name--link" onClick={() => openPreview(item)}>
                    {item.fileName}
                  </button>
                  <span className="multi-upload__size">{formatFileSize(item.fileSize)}</span>
                </div>
              </div>
              {!disabled && (
                <div className="multi-upload__actions">
                  <RowAction label={t('upload.actions.delete')} icon={<DeleteOutlined />} onClick={() => deleteStored(item)} />
                </div>
              )}
            </div>
          ))}
          {entries.map((entry) => (
            <EntryRow
              key={entry.uid}
              entry={entry}
              canRetry={!disabled && queue.canRetry(entry.uid)}
              onCancel={() => queue.cancel(entry.uid)}
              onRemove={() => queue.remove(entry.uid)}
              onRetry={() => queue.retry(entry.uid)}
            />
          ))}
        </div>
      )}
      {holder}
    </div>
  );
}

function RowAction({ label, icon, onClick }: { label: string; icon: ReactNode; onClick(): void }) {
  return (
    <Tooltip title={label}>
      <Button type="text" size="small" aria-label={label} icon={icon} onClick={onClick} />
    </Tooltip>
  );
}

interface EntryRowProps {
  entry: UploadEntry;
  canRetry: boolean;
  onCancel(): void;
  onRemove(): void;
  onRetry(): void;
}

function EntryRow({ entry, canRetry, onCancel, onRemove, onRetry }: EntryRowProps) {
  const { t } = useTranslation('files');
  const { status } = entry;
  const isError = status.startsWith('error_');
  const text =
    status === 'uploading'
      ? t('upload.status.uploading', { percent: entry.percent })
      : t(`upload.status.${status as Exclude<typeof status, 'uploading' | 'ok'>}`);
  return (
    <div
      role="listitem"
      className={`multi-upload__row${isError ? ' multi-upload__row--error' : ''}`}
      data-status={status}
      style={{ height: UPLOAD_LIST.rowHeight }}
    >
      <FileOutlined className="multi-upload__icon" />
      <div className="multi-upload__main">
        <div className="multi-upload__line">
          <span className="multi-upload__name">{entry.fileName}</span>
          <span className="multi-upload__size">{formatFileSize(entry.fileSize)}</span>
        </div>
        <div className="multi-upload__state">
          {/* A refusal or failure is announced as it appears (WCAG 4.1.3); progress is not. */}
          <span data-testid="upload-state" role={isError ? 'alert' : undefined}>
            {text}
          </span>
          {status === 'uploading' && (
            <Progress percent={entry.percent} size="small" showInfo={false} className="multi-upload__progress" />
          )}
        </div>
      </div>
      <div className="multi-upload__actions">
        {status === 'uploading' && (
          <RowAction label={t('upload.actions.cancel')} icon={<CloseCircleOutlined />} onClick={onCancel} />
        )}
        {status === 'waiting' && <RowAction label={t('upload.actions.delete')} icon={<DeleteOutlined />} onClick={onRemove} />}
        {canRetry && <RowAction label={t('upload.actions.retry')} icon={<ReloadOutlined />} onClick={onRetry} />}
        {isError && <RowAction label={t('upload.actions.dismiss')} icon={<CloseOutlined />} onClick={onRemove} />}
      </div>
    </div>
  );
}
