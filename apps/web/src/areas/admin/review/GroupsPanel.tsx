import { useState } from 'react';
import { Button, Card, Empty, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { GroupView, GroupsOverview, ReviewRound } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { labelOf, useDictLabels } from '../../../components/contest';
import { GroupDialog } from './GroupDialog';
import { deleteGroup } from './review-api';
import { TRACK_DICT, slugOf } from './round';

export interface GroupsPanelProps {
  round: ReviewRound;
  overview: GroupsOverview;
  canEdit: boolean;
  /** After a change: the groups, figures and projects are read again. */
  onChanged(): void;
}

/** The round's groups as cards: experts (code, name, organisation, tracks), projects, covered tracks; create, edit, delete. */
export function GroupsPanel({ round, overview, canEdit, onChanged }: GroupsPanelProps) {
  const { t } = useTranslation('review');
  const { message, modal } = useFeedback();
  const labels = useDictLabels([TRACK_DICT]);
  const [editing, setEditing] = useState<GroupView | 'new' | null>(null);
  const track = (code: string) => labelOf(labels.data, TRACK_DICT, code);

  const remove = (group: GroupView) =>
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('groups.confirmDelete', { name: group.name, count: group.projectCount }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await deleteGroup(slugOf(round), group.id);
          void message.success(t('groups.deleted'));
        } catch {
          // The client has shown the refusal (scores saved meanwhile...); show the groups as they are.
        }
        onChanged();
      },
    });

  return (
    <div data-testid="groups-panel">
      {canEdit && (
        <div className="kit-toolbar">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="group-create">
            {t('groups.create')}
          </Button>
        </div>
      )}
      {overview.groups.length === 0 ? (
        <Empty description={t('groups.empty')} data-testid="groups-empty" />
      ) : (
        <div className="review-groups">
          {overview.groups.map((group) => (
            <Card
              key={group.id}
              size="small"
              className="review-group"
              data-testid="group-card"
              title={group.name}
              extra={
                canEdit && (
                  <Space size={0}>
                    <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(group)} data-testid="group-edit">
                      {t('common.edit')}
                    </Button>
                    <Tooltip title={group.sheetCount > 0 ? t('groups.hasScores') : undefined}>
                      <Button
                        type="link"
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        disabled={group.sheetCount > 0}
                        onClick={() => remove(group)}
                        data-testid="group-delete"
                      >
                        {t('common.delete')}
                      </Button>
                    </Tooltip>
                  </Space>
                )
              }
            >
              <div className="review-group__facts">
                <span>{t('groups.projectCount', { count: group.projectCount })}</span>
                <span>{t('groups.expertCount', { count: group.experts.length })}</span>
                {group.sheetCount > 0 && <span>{t('groups.sheetCount', { count: group.sheetCount })}</span>}
              </div>
              <div className="review-group__tracks">
                <Typography.Text type="secondary">{t('groups.tracks')}</Typography.Text>
                {group.tracks.length === 0 ? (
                  <Typography.Text type="warning">{t('groups.noTracks')}</Typography.Text>
                ) : (
                  group.tracks.map((code) => (
                    <Tag key={code} color="blue">
                      {track(code)}
                    </Tag>
                  ))
                )}
              </div>
              {group.experts.length === 0 ? (
                <Typography.Text type="warning">{t('groups.noExperts')}</Typography.Text>
              ) : (
                <ul className="review-group__experts">
                  {group.experts.map((e) => (
                    <li key={e.id} data-testid="group-expert">
                      <div>
                        <strong>{e.code}</strong> {e.name}
                        {!e.enabled && (
                          <Tag color="red" className="review-tag--inline">
                            {t('experts.disabledTag')}
                          </Tag>
                        )}
                      </div>
                      <Typography.Text type="secondary" className="review-group__meta">
                        {e.organization}
                        {e.tracks.length > 0 && ` · ${e.tracks.map(track).join('、')}`}
                      </Typography.Text>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          ))}
        </div>
      )}
      <GroupDialog
        round={round}
        open={editing !== null}
        group={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSaved={onChanged}
      />
    </div>
  );
}
