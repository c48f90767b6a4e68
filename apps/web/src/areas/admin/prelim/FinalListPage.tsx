import { useState } from 'react';
import { Button, Space } from 'antd';
import { PlusOutlined, TrophyOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { ButtonCode, FinalAdminRow } from '@contest/shared';
import { ExportButton, SearchTable, isStale, type SearchColumns } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { PromotionDialog } from '../review/PromotionDialog';
import { PromotionHistoryButton } from '../review/PromotionHistory';
import { REVIEW_QUERY_KEYS } from '../review/review-api';
import { ApplicationChars } from './ApplicationChars';
import { FinalAddDialog } from './FinalAddDialog';
import { FINAL_FIELDS, TRACK_DICT } from './fields';
import { PRELIM_PATHS } from './paths';
import { FINAL_EXPORT_URL, PRELIM_QUERY_KEYS, fetchFinals, removeFromFinal } from './prelim-api';
import { ReasonDialog } from './ReasonDialog';
import './prelim.css';

const PROMOTE: ButtonCode[] = ['final:promote'];

/**
 * 决赛项目管理 (/admin/preliminary/preliminaryAdminSearch): the projects in the final round, with
 * the materials list's filters; 晋级决赛 from the preliminary ranking (review/PromotionDialog) and
 * the record of past promotions; add one (APPROVED materials only) or remove one, each with a
 * required reason; export.
 */
export function FinalListPage() {
  const { t } = useTranslation('admin');
  const { t: tr } = useTranslation('review');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<FinalAdminRow | null>(null);
  const [promoting, setPromoting] = useState(false);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: PRELIM_QUERY_KEYS.all });

  const remove = async (row: FinalAdminRow, reason: string) => {
    try {
      await removeFromFinal(row.id, { reason, version: row.finalVersion });
    } catch (error) {
      if (!isStale(error)) throw error;
      // Someone changed the entry meanwhile: say so, show the list as it is now.
      void message.warning((error as Error).message);
      refresh();
      return;
    }
    void message.success(t('pages.prelim.final.removed'));
    refresh();
  };

  const columns: SearchColumns<FinalAdminRow> = [
    {
      title: t('pages.prelim.fields.projectName'),
      dataIndex: 'projectName',
      key: 'projectName',
      sorter: true,
      render: (name: string, row) => (
        <Link to={PRELIM_PATHS.final(row.id)} className="prelim-link">
          {name || t('pages.prelim.untitled')}
        </Link>
      ),
    },
    { title: t('pages.prelim.fields.teamName'), dataIndex: 'teamName' },
    { title: t('pages.prelim.fields.orgName'), dataIndex: 'orgName' },
    { title: t('pages.prelim.fields.track'), dataIndex: 'track', dict: TRACK_DICT },
    // Every project here passed the formal check: no status column, room for why it is here.
    {
      title: t('pages.prelim.fields.applicationChars'),
      dataIndex: 'applicationChars',
      key: 'applicationChars',
      sorter: true,
      render: (_, row) => <ApplicationChars chars={row.applicationChars} max={row.maxApplicationChars} compact />,
    },
    { title: t('pages.prelim.fields.finalAt'), dataIndex: 'finalAt', dateTime: true },
    { title: t('pages.prelim.fields.finalReason'), dataIndex: 'finalReason', ellipsis: true, width: 220 },
    {
      title: t('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void navigate(PRELIM_PATHS.final(row.id))}>
            {t('pages.common.detail')}
          </Button>
          <Permission codes={PROMOTE}>
            <Button type="link" size="small" danger onClick={() => setRemoving(row)} data-testid="row-remove">
              {t('pages.prelim.final.remove')}
            </Button>
          </Permission>
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="final-list-page">
      <h1 className="admin-page__title">{t('titles.preliminaryAdminSearch')}</h1>
      <SearchTable<FinalAdminRow>
        queryKey={PRELIM_QUERY_KEYS.finals}
        fetchPage={fetchFinals}
        rowKey="id"
        columns={columns}
        searchFields={FINAL_FIELDS}
        urlState
        toolbar={(filters) => (
          <>
            <Permission codes={PROMOTE}>
              <Button type="primary" icon={<TrophyOutlined />} onClick={() => setPromoting(true)} data-testid="final-promote">
                {tr('promotion.open')}
              </Button>
            </Permission>
            <Permission codes={PROMOTE}>
              <Button icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="final-add">
                {t('pages.prelim.final.add')}
              </Button>
            </Permission>
            <Permission codes={['final:export']}>
              <ExportButton url={FINAL_EXPORT_URL} params={filters} fallbackName={t('pages.prelim.final.exportName')} />
            </Permission>
            <PromotionHistoryButton />
          </>
        )}
      />
      <FinalAddDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={() => {
          void message.success(t('pages.prelim.final.added'));
          refresh();
        }}
      />
      <PromotionDialog
        open={promoting}
        onClose={() => setPromoting(false)}
        onPromoted={(result) => {
          void message.success(tr('promotion.done', { added: result.added, already: result.already }));
          refresh();
          void queryClient.invalidateQueries({ queryKey: REVIEW_QUERY_KEYS.promotions });
        }}
      />
      <ReasonDialog
        open={removing !== null}
        title={t('pages.prelim.final.removeTitle')}
        onClose={() => setRemoving(null)}
        onSubmit={(reason) => (removing ? remove(removing, reason) : Promise.resolve())}
      >
        {removing && <p>{t('pages.prelim.final.removeOf', { name: removing.projectName || t('pages.prelim.untitled') })}</p>}
      </ReasonDialog>
    </section>
  );
}
