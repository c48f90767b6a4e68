import { useState } from 'react';
import { Alert, Button, Space, Table, Typography, Upload } from 'antd';
import { CopyOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ExpertCredentials, ExpertImportResult, ImportRowError } from '@contest/shared';
import { AppDialog, ExportButton } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { EXPERT_TEMPLATE_URL, IMPORT_MAX_BYTES, importExperts, importRowErrors } from './experts-api';
import { useExpertMessage } from './expert-messages';

type Outcome =
  | { kind: 'done'; result: ExpertImportResult }
  | { kind: 'rows'; message: string; rows: ImportRowError[] }
  | { kind: 'failed'; message: string };

export interface ExpertImportDialogProps {
  open: boolean;
  /** `imported` when some experts were written (the list should be read again). */
  onClose(imported: boolean): void;
}

/**
 * 导入专家: download the template, choose the filled-in .xlsx, upload; then either the imported
 * count with the generated passwords (shown once) or the row report (nothing was imported).
 */
export function ExpertImportDialog({ open, onClose }: ExpertImportDialogProps) {
  const { t } = useTranslation('experts');
  const translate = useExpertMessage();
  const { message } = useFeedback();
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const reset = () => {
    setFile(null);
    setFileProblem(null);
    setOutcome(null);
  };

  const close = () => {
    const imported = outcome?.kind === 'done';
    reset();
    onClose(imported);
  };

  const choose = (chosen: File) => {
    setOutcome(null);
    if (!/\.xlsx$/i.test(chosen.name)) {
      setFile(null);
      setFileProblem(t('import.notXlsx'));
    } else if (chosen.size > IMPORT_MAX_BYTES) {
      setFile(null);
      setFileProblem(t('import.tooLarge'));
    } else {
      setFile(chosen);
      setFileProblem(null);
    }
    // Kept here, sent by the button: antd's own upload would post at once.
    return false;
  };

  const start = async () => {
    if (!file) return;
    setBusy(true);
    try {
      setOutcome({ kind: 'done', result: await importExperts(file) });
    } catch (err) {
      const rows = importRowErrors(err);
      const text = translate(err instanceof Error ? err.message : t('import.failed'));
      setOutcome(rows ? { kind: 'rows', message: text, rows } : { kind: 'failed', message: text });
    } finally {
      setBusy(false);
    }
  };

  const copyAll = async (credentials: readonly ExpertCredentials[]) => {
    const lines = [
      [t('fields.code'), t('fields.name'), t('import.username'), t('import.password')].join('\t'),
      ...credentials.map((c) => [c.code, c.name, c.username, c.password].join('\t')),
    ];
    try {
      await navigator.clipboard.writeText(lines.join('\n'));
      void message.success(t('import.copied'));
    } catch {
      // No clipboard (insecure origin): the table stays selectable on screen.
    }
  };

  const done = outcome?.kind === 'done' ? outcome.result : null;

  return (
    <AppDialog
      open={open}
      title={t('import.title')}
      width={760}
      onCancel={close}
      footer={
        done ? (
          <Button type="primary" onClick={close}>
            {t('import.close')}
          </Button>
        ) : (
          <Space wrap>
            <Button onClick={close}>{t('import.close')}</Button>
            <Button type="primary" disabled={!file} loading={busy} onClick={() => void start()} data-testid="import-start">
              {t('import.start')}
            </Button>
          </Space>
        )
      }
    >
      <div data-testid="expert-import">
        {!done && (
          <>
            <Typography.Paragraph>{t('import.steps')}</Typography.Paragraph>
            <Space wrap className="expert-import__pick">
              <ExportButton url={EXPERT_TEMPLATE_URL} fallbackName={t('import.templateName')} data-testid="import-template">
                {t('import.template')}
              </ExportButton>
              <Upload accept=".xlsx" maxCount={1} showUploadList={false} beforeUpload={choose}>
                <Button icon={<UploadOutlined />} data-testid="import-choose">
                  {t('import.choose')}
                </Button>
              </Upload>
              <Typography.Text data-testid="import-file-name" type={file ? undefined : 'secondary'}>
                {file ? file.name : t('import.noFile')}
              </Typography.Text>
            </Space>
            {fileProblem && <Alert type="error" showIcon title={fileProblem} className="expert-import__alert" data-testid="import-file-problem" />}
          </>
        )}

        {outcome?.kind === 'failed' && <Alert type="error" showIcon title={outcome.message} className="expert-import__alert" data-testid="import-failed" />}

        {outcome?.kind === 'rows' && (
          <div data-testid="import-errors">
            <Alert
              type="error"
              showIcon
              title={outcome.message}
              description={t('import.errorCount', { count: outcome.rows.length })}
              className="expert-import__alert"
            />
            <Table<ImportRowError>
              size="small"
              rowKey={(r) => `${r.row}-${r.column}-${r.reason}`}
              dataSource={outcome.rows}
              pagination={outcome.rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
              scroll={{ x: 'max-content' }}
              columns={[
                { title: t('import.row'), dataIndex: 'row', width: 72 },
                { title: t('import.column'), dataIndex: 'column', width: 160 },
                { title: t('import.reason'), dataIndex: 'reason', render: (reason: string) => translate(reason) },
              ]}
            />
          </div>
        )}

        {done && (
          <div data-testid="import-done">
            <Alert type="success" showIcon title={t('import.done', { count: done.imported })} className="expert-import__alert" />
            <Alert type="warning" showIcon title={t('import.onceWarning')} className="expert-import__alert" />
            <Button icon={<CopyOutlined />} onClick={() => void copyAll(done.credentials)} className="expert-import__copy" data-testid="import-copy">
              {t('import.copyAll')}
            </Button>
            <Table<ExpertCredentials>
              size="small"
              rowKey="id"
              dataSource={done.credentials}
              pagination={done.credentials.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
              scroll={{ x: 'max-content' }}
              columns={[
                { title: t('fields.code'), dataIndex: 'code' },
                { title: t('fields.name'), dataIndex: 'name' },
                { title: t('import.username'), dataIndex: 'username' },
                {
                  title: t('import.password'),
                  dataIndex: 'password',
                  render: (password: string) => (
                    <Typography.Text code copyable={{ text: password }} className="generated-password">
                      {password}
                    </Typography.Text>
                  ),
                },
              ]}
            />
          </div>
        )}
      </div>
    </AppDialog>
  );
}
