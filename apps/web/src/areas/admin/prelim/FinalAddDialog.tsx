import { useState } from 'react';
import { Button, Typography } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PrelimAdminRow } from '@contest/shared';
import { SearchTable, type SearchColumns } from '../../../components/admin-kit';
import { PRELIM_FIELDS, TRACK_DICT } from './fields';
import { PRELIM_QUERY_KEYS, addToFinal, fetchPrelims } from './prelim-api';
import { ReasonDialog } from './ReasonDialog';

/** The add dialog searches these: every filter of the list but the status, which is fixed to APPROVED. */
const CANDIDATE_FIELDS = PRELIM_FIELDS.filter((f) => f.name !== 'status');

/** Materials that passed the formal check and are not in the final now (the server filters, so pages and totals hold). */
const fetchCandidates = (params: object) => fetchPrelims({ ...params, status: 'APPROVED', inFinal: false });

/**
 * 添加项目: search the APPROVED materials not in the final, choose one, give the (required)
 * reason. `onAdded` after the server took it (message 已加入决赛名单).
 */
export function FinalAddDialog({ open, onClose, onAdded }: { open: boolean; onClose(): void; onAdded(row: PrelimAdminRow): void }) {
  const { t } = useTranslation('admin');
  const [chosen, setChosen] = useState<PrelimAdminRow | null>(null);

  const close = () => {
    setChosen(null);
    onClose();
  };

  const columns: SearchColumns<PrelimAdminRow> = [
    { title: t('pages.prelim.fields.projectName'), dataIndex: 'projectName' },
    { title: t('pages.prelim.fields.teamName'), dataIndex: 'teamName' },
    { title: t('pages.prelim.fields.orgName'), dataIndex: 'orgName' },
    { title: t('pages.prelim.fields.track'), dataIndex: 'track', dict: TRACK_DICT },
    { title: t('pages.prelim.fields.submittedAt'), dataIndex: 'submittedAt', dateTime: true },
    {
      title: t('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) =>
        chosen?.id === row.id ? (
          <Typography.Text type="success">
            <CheckOutlined /> {t('pages.prelim.final.chosen')}
          </Typography.Text>
        ) : (
          <Button type="link" size="small" onClick={() => setChosen(row)} data-testid="candidate-choose">
            {t('pages.prelim.final.choose')}
          </Button>
        ),
    },
  ];

  return (
    <ReasonDialog
      open={open}
      title={t('pages.prelim.final.addTitle')}
      width={960}
      okDisabled={chosen === null}
      onClose={close}
      onSubmit={async (reason) => {
        if (!chosen) throw new Error(t('pages.prelim.final.chooseFirst'));
        await addToFinal(chosen.id, { reason });
        onAdded(chosen);
      }}
    >
      <Typography.Paragraph type="secondary">{t('pages.prelim.final.candidateHint')}</Typography.Paragraph>
      <div data-testid="final-candidates">
        <SearchTable<PrelimAdminRow>
          queryKey={PRELIM_QUERY_KEYS.candidates}
          fetchPage={fetchCandidates}
          rowKey="id"
          columns={columns}
          searchFields={CANDIDATE_FIELDS}
        />
      </div>
      <div className="prelim-candidates__chosen" data-testid="candidate-chosen">
        {chosen ? (
          <Typography.Text strong>{t('pages.prelim.final.addOf', { name: chosen.projectName || t('pages.prelim.untitled') })}</Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('pages.prelim.final.chooseFirst')}</Typography.Text>
        )}
      </div>
    </ReasonDialog>
  );
}
