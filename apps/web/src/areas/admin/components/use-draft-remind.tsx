import { Button } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ButtonCode, RemindInput, RemindResult } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { useRemind } from './use-remind';

export interface DraftRemindOptions {
  send(body: RemindInput): Promise<RemindResult>;
  /** Invalidated after a reminder (the list shows the day of the last one). */
  listKey: readonly unknown[];
  /** The permission of the remind buttons. */
  codes: ButtonCode[];
  /** The area's words, translated. */
  texts: { remind: string; remindAll: string; remindSelected: string; confirmAll: string };
}

/**
 * The remind buttons of a drafts list and its detail page: one row, the selected rows, or every
 * draft (behind a confirm). `busy` (from useRemind) names the button that waits.
 */
export function useDraftRemind({ send, listKey, codes, texts }: DraftRemindOptions, onDone?: () => void) {
  const { t } = useTranslation('admin');
  const { modal } = useFeedback();
  const { remind, busy } = useRemind(send, listKey, onDone);

  const remindAll = () => {
    modal.confirm({
      title: t('pages.common.confirmTitle'),
      content: texts.confirmAll,
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      onOk: () => remind({ all: true }, 'all'),
    });
  };

  /** A batch is sent to many at once: it asks first, naming how many. */
  const remindSelected = (rows: readonly { id: string }[], clear: () => void) => {
    modal.confirm({
      title: t('pages.common.confirmTitle'),
      content: t('pages.common.confirmRemindSelected', { count: rows.length }),
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      onOk: () => remind({ ids: rows.map((r) => r.id) }, 'selected').then(clear),
    });
  };

  /** 全部提醒, for the list's toolbar. */
  const allButton = (
    <Permission codes={codes}>
      <Button icon={<BellOutlined />} loading={busy === 'all'} onClick={remindAll} data-testid="remind-all">
        {texts.remindAll}
      </Button>
    </Permission>
  );

  /** 提醒所选, for the batch bar; not behind the permission: the page decides whether there is a batch bar. */
  const selectedButton = (rows: readonly { id: string }[], clear: () => void) => (
    <Button
      size="small"
      disabled={rows.length === 0}
      loading={busy === 'selected'}
      onClick={() => remindSelected(rows, clear)}
      data-testid="remind-selected"
    >
      {texts.remindSelected}
    </Button>
  );

  /** 提醒 in a row's actions. */
  const rowButton = (id: string) => (
    <Permission codes={codes}>
      <Button type="link" size="small" loading={busy === id} onClick={() => void remind({ ids: [id] }, id)} data-testid="row-remind">
        {texts.remind}
      </Button>
    </Permission>
  );

  /** 提醒 on the draft's detail page. */
  const detailButton = (id: string) => (
    <Permission codes={codes}>
      <Button icon={<BellOutlined />} loading={busy !== null} onClick={() => void remind({ ids: [id] }, id)}>
        {texts.remind}
      </Button>
    </Permission>
  );

  return { allButton, selectedButton, rowButton, detailButton };
}
