import { useEffect, useState } from 'react';
import { Alert, Button, Empty, Skeleton, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ADMIN_MENU_PATHS, type AssignPreview, type ReviewRound } from '@contest/shared';
import { AppDialog } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { labelOf, useDictLabels } from '../../../components/contest';
import { errorText, isStale } from './errors';
import { applyAssign, previewAssign } from './review-api';
import { TRACK_DICT, slugOf } from './round';

type Placement = AssignPreview['placements'][number];
type Problem = AssignPreview['problems'][number];
type Load = AssignPreview['loads'][number];

const PAGE = { pageSize: 10, size: 'small' as const, showSizeChanger: false, hideOnSinglePage: true };

export interface AssignDialogProps {
  round: ReviewRound;
  open: boolean;
  onClose(): void;
  /** After an apply (and after a STALE refusal: the state changed). */
  onApplied(): void;
}

/**
 * 自动分配: previews the placement of every project not yet in a group (loads before and after per
 * group, each placement with its reason, the projects that cannot be placed and why, in red), then
 * applies exactly that preview (its token); a changed state is refused and previewed again.
 */
export function AssignDialog({ round, open, onClose, onApplied }: AssignDialogProps) {
  const { t } = useTranslation('review');
  const { message } = useFeedback();
  const labels = useDictLabels([TRACK_DICT]);
  const [preview, setPreview] = useState<AssignPreview | null>(null);
  const [loading, setLoading] = useState(false);
  const [applying, setApplying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);

  const load = async () => {
    setLoading(true);
    setError(null);
    setStale(false);
    setPreview(null);
    try {
      setPreview(await previewAssign(slugOf(round)));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    if (open) void load();
    else {
      setPreview(null);
      setError(null);
      setStale(false);
    }
    // Each opening previews the state as it is now.
  }, [open]);

  const apply = async () => {
    if (!preview) return;
    setApplying(true);
    setError(null);
    try {
      const applied = await applyAssign(slugOf(round), preview.token);
      void message.success(t('assign.applied', { count: applied?.assigned ?? preview.placements.length }));
      onApplied();
      onClose();
    } catch (e) {
      if (isStale(e)) {
        setStale(true);
        onApplied();
      } else setError(errorText(e));
    } finally {
      setApplying(false);
    }
  };

  const track = (code: string | null) => labelOf(labels.data, TRACK_DICT, code);

  const loadColumns: ColumnsType<Load> = [
    { title: t('common.group'), dataIndex: 'name' },
    { title: t('assign.before'), dataIndex: 'before', align: 'right' },
    { title: t('assign.after'), dataIndex: 'after', align: 'right' },
    {
      title: t('assign.added'),
      key: 'added',
      align: 'right',
      render: (_, row) => <Typography.Text strong={row.after > row.before}>+{row.after - row.before}</Typography.Text>,
    },
  ];
  const placementColumns: ColumnsType<Placement> = [
    { title: t('common.project'), dataIndex: 'projectName' },
    { title: t('common.track'), dataIndex: 'track', render: (code: string | null) => track(code) },
    { title: t('common.group'), dataIndex: 'groupName' },
    { title: t('assign.expected'), dataIndex: 'expected', align: 'right' },
    { title: t('assign.reason'), dataIndex: 'reason', render: (text: string) => <span className="review-reason">{text}</span> },
  ];
  const problemColumns: ColumnsType<Problem> = [
    { title: t('common.project'), dataIndex: 'projectName' },
    { title: t('common.track'), dataIndex: 'track', render: (code: string | null) => track(code) },
    { title: t('assign.problem'), dataIndex: 'reason', render: (text: string) => <Typography.Text type="danger">{text}</Typography.Text> },
  ];

  const canApply = preview !== null && preview.placements.length > 0 && !stale;

  return (
    <AppDialog
      open={open}
      title={t('assign.title')}
      width={1000}
      onCancel={() => {
        if (!applying) onClose();
      }}
      footer={
        <Space wrap>
          <Button onClick={onClose} disabled={applying}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void load()} loading={loading} disabled={applying} data-testid="assign-repreview">
            {t('assign.previewAgain')}
          </Button>
          <Button type="primary" onClick={() => void apply()} loading={applying} disabled={!canApply} data-testid="assign-apply">
            {t('assign.apply')}
          </Button>
        </Space>
      }
      data-testid="assign-dialog"
    >
      {stale && (
        <Alert
          type="warning"
          showIcon
          title={t('assign.stale')}
          action={
            <Button size="small" type="primary" onClick={() => void load()} data-testid="assign-stale-repreview">
              {t('assign.previewAgain')}
            </Button>
          }
          className="review-block"
          data-testid="assign-stale"
        />
      )}
      {error && <Alert type="error" showIcon title={error} className="review-block" data-testid="review-dialog-error" />}
      {loading && <Skeleton active paragraph={{ rows: 6 }} data-testid="assign-loading" />}
      {preview && !loading && (
        <div data-testid="assign-preview">
          <Typography.Paragraph>
            {t('assign.summary', { placed: preview.placements.length, problems: preview.problems.length })}
          </Typography.Paragraph>
          <h3 className="review-subtitle">{t('assign.loads')}</h3>
          <Table<Load>
            size="small"
            rowKey="groupId"
            columns={loadColumns}
            dataSource={preview.loads}
            pagination={false}
            scroll={{ x: 'max-content' }}
            data-testid="assign-loads"
          />
          {preview.problems.some((p) => p.code === 'TOO_FEW_EXPERTS') && (
            // Where the number comes from, and where to change it (the default of 5 refuses groups of 3).
            <Alert
              type="info"
              showIcon
              title={t('assign.minExpertsHint', { min: preview.minExperts })}
              action={
                <Link to={ADMIN_MENU_PATHS.systemSettings} onClick={onClose} data-testid="assign-settings-link">
                  {t('assign.openSettings')}
                </Link>
              }
              className="review-block"
              data-testid="assign-min-experts"
            />
          )}
          {preview.problems.length > 0 && (
            <>
              <h3 className="review-subtitle review-subtitle--danger">{t('assign.problems', { count: preview.problems.length })}</h3>
              <Table<Problem>
                size="small"
                rowKey="projectId"
                columns={problemColumns}
                dataSource={preview.problems}
                pagination={PAGE}
                scroll={{ x: 'max-content' }}
                rowClassName={() => 'review-row--problem'}
                data-testid="assign-problems"
              />
            </>
          )}
          <h3 className="review-subtitle">{t('assign.placements', { count: preview.placements.length })}</h3>
          {preview.placements.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('assign.nothing')} />
          ) : (
            <Table<Placement>
              size="small"
              rowKey="projectId"
              columns={placementColumns}
              dataSource={preview.placements}
              pagination={PAGE}
              scroll={{ x: 'max-content' }}
              data-testid="assign-placements"
            />
          )}
        </div>
      )}
    </AppDialog>
  );
}
