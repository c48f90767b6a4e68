import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Alert, Button, Space, Tag, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, HolderOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { LiveExclusion, LiveJudge, LivePlannedProject } from '@contest/shared';
import { ProjectStateTag } from './LiveStatusTag';

export interface ProjectOrderProps {
  projects: readonly LivePlannedProject[];
  judges: readonly LiveJudge[];
  canEdit: boolean;
  busy?: boolean;
  /** Saves the whole list in running order (PUT .../projects); rejects when refused. */
  onSave(projectIds: string[]): Promise<void>;
  /** Removes one project (asked first by the page). */
  onRemove(project: LivePlannedProject, order: string[]): void;
}

/**
 * The running order (答辩顺序): drag a row by its handle, or use its 上移 / 下移 buttons (the
 * keyboard way: drag alone is not keyboard accessible). Only waiting projects move, and never in
 * front of one that has started (the server's rule, docs/live-final.md "Sessions and judges").
 * Moves are a draft until 保存顺序.
 */
export function ProjectOrder({ projects, judges, canEdit, busy = false, onSave, onRemove }: ProjectOrderProps) {
  const { t } = useTranslation('liveAdmin');
  const serverOrder = projects.map((p) => p.projectId);
  const serverKey = serverOrder.join(',');
  const [order, setOrder] = useState<string[]>(serverOrder);
  const [announce, setAnnounce] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const focusAfterMove = useRef<string | null>(null);
  const buttons = useRef(new Map<string, HTMLElement>());

  // A new list from the server (saved, another admin's change) replaces the draft.
  useEffect(() => {
    setOrder(serverKey ? serverKey.split(',') : []);
  }, [serverKey]);

  useEffect(() => {
    const key = focusAfterMove.current;
    if (!key) return;
    focusAfterMove.current = null;
    buttons.current.get(key)?.focus();
  }, [order]);

  const byId = new Map(projects.map((p) => [p.projectId, p]));
  const judgeById = new Map(judges.map((j) => [j.expertId, j]));
  const rows = order.map((id) => byId.get(id)).filter((p): p is LivePlannedProject => !!p);
  const dirty = order.join(',') !== serverKey;
  const waiting = (index: number) => rows[index]?.state === 'WAITING';

  /** Whether the project at `from` may go to `to`: it waits, and it passes no started project on the way up. */
  const canMove = (from: number, to: number) => {
    if (!canEdit || busy || to < 0 || to >= rows.length || from === to || !waiting(from)) return false;
    if (to < from) for (let i = to; i < from; i++) if (!waiting(i)) return false;
    return true;
  };

  const move = (from: number, to: number, focusKey?: string) => {
    if (!canMove(from, to)) return;
    const next = [...order];
    const [id] = next.splice(from, 1);
    next.splice(to, 0, id!);
    if (focusKey) {
      // At the list's ends the pressed button is disabled now: focus its sibling instead.
      const [direction, key] = focusKey.split(':') as ['up' | 'down', string];
      const atEdge = (direction === 'up' && to === 0) || (direction === 'down' && to === next.length - 1);
      focusAfterMove.current = atEdge ? `${direction === 'up' ? 'down' : 'up'}:${key}` : focusKey;
    }
    setOrder(next);
    setAnnounce(t('plan.moved', { name: byId.get(id!)?.projectName ?? '', position: to + 1 }));
  };

  const onDrop = (event: DragEvent, to: number) => {
    event.preventDefault();
    if (!dragging) return;
    move(order.indexOf(dragging), to);
    setDragging(null);
  };

  const judgeName = (id: string) => {
    const j = judgeById.get(id);
    return j ? `${j.code} ${j.name}` : id;
  };

  if (rows.length === 0) return <Typography.Text type="secondary">{t('plan.noProjects')}</Typography.Text>;

  return (
    <div className="live-order" data-testid="live-order">
      {dirty && (
        <Alert
          type="info"
          showIcon
          className="live-order__dirty"
          title={t('plan.orderDirty')}
          action={
            <Space>
              <Button size="small" onClick={() => setOrder(serverOrder)} disabled={busy}>
                {t('plan.resetOrder')}
              </Button>
              <Button size="small" type="primary" loading={busy} onClick={() => void onSave(order)} data-testid="live-order-save">
                {t('plan.saveOrder')}
              </Button>
            </Space>
          }
        />
      )}
      <div className="live-order__scroll">
        <table className="live-order__table">
          <thead>
            <tr>
              {canEdit && <th scope="col" className="live-order__handle-col"><span className="sr-only">{t('plan.order')}</span></th>}
              <th scope="col">{t('plan.order')}</th>
              <th scope="col">{t('plan.project')}</th>
              <th scope="col">{t('plan.group')}</th>
              <th scope="col">{t('plan.state')}</th>
              <th scope="col">{t('plan.expected')}</th>
              <th scope="col">{t('plan.excluded')}</th>
              {canEdit && <th scope="col">{t('chair.actionsCol')}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((p, index) => (
              <tr
                key={p.projectId}
                data-testid="live-order-row"
                className={dragging === p.projectId ? 'live-order__row live-order__row--dragging' : 'live-order__row'}
                draggable={canMove(index, index + 1) || canMove(index, index - 1)}
                onDragStart={(event) => {
                  setDragging(p.projectId);
                  event.dataTransfer.effectAllowed = 'move';
                }}
                onDragEnd={() => setDragging(null)}
                onDragOver={(event) => {
                  if (dragging && canMove(order.indexOf(dragging), index)) event.preventDefault();
                }}
                onDrop={(event) => onDrop(event, index)}
              >
                {canEdit && (
                  <td className="live-order__handle" title={t('plan.dragHandle', { name: p.projectName })} aria-hidden="true">
                    {p.state === 'WAITING' && <HolderOutlined />}
                  </td>
                )}
                <td className="live-order__no">{index + 1}</td>
                <td>
                  <div className="live-order__name">{p.projectName}</div>
                  <Typography.Text type="secondary" className="live-order__meta">
                    {p.teamName} · {p.orgName}
                  </Typography.Text>
                </td>
                <td>{p.groupName ?? '--'}</td>
                <td>
                  <ProjectStateTag state={p.state} />
                </td>
                <td data-testid="live-order-expected">
                  {p.expectedJudgeIds.length === 0 ? (
                    <Typography.Text type="danger">{t('plan.none')}</Typography.Text>
                  ) : (
                    <span className="live-tags">
                      {p.expectedJudgeIds.map((id) => (
                        <Tag key={id}>{judgeName(id)}</Tag>
                      ))}
                    </span>
                  )}
                </td>
                <td data-testid="live-order-excluded">
                  <ExclusionList excluded={p.excluded} />
                </td>
                {canEdit && (
                  <td className="live-order__actions">
                    <Space size={4}>
                      <Button
                        size="small"
                        icon={<ArrowUpOutlined />}
                        aria-label={t('plan.moveUp', { name: p.projectName })}
                        title={t('plan.moveUp', { name: p.projectName })}
                        disabled={!canMove(index, index - 1)}
                        onClick={() => move(index, index - 1, `up:${p.projectId}`)}
                        ref={(el) => {
                          if (el) buttons.current.set(`up:${p.projectId}`, el);
                          else buttons.current.delete(`up:${p.projectId}`);
                        }}
                        data-testid="live-move-up"
                      />
                      <Button
                        size="small"
                        icon={<ArrowDownOutlined />}
                        aria-label={t('plan.moveDown', { name: p.projectName })}
                        title={t('plan.moveDown', { name: p.projectName })}
                        disabled={!canMove(index, index + 1)}
                        onClick={() => move(index, index + 1, `down:${p.projectId}`)}
                        ref={(el) => {
                          if (el) buttons.current.set(`down:${p.projectId}`, el);
                          else buttons.current.delete(`down:${p.projectId}`);
                        }}
                        data-testid="live-move-down"
                      />
                      <Button
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('plan.remove', { name: p.projectName })}
                        title={t('plan.remove', { name: p.projectName })}
                        disabled={busy || p.state !== 'WAITING'}
                        onClick={() => onRemove(p, order)}
                        data-testid="live-remove"
                      />
                    </Space>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="sr-only" role="status" aria-live="polite" data-testid="live-order-announce">
        {announce}
      </div>
    </div>
  );
}

/** The judges left out of a project, each with why (conflict and its cause, or not one of its reviewers). */
export function ExclusionList({ excluded }: { excluded: readonly LiveExclusion[] }) {
  const { t } = useTranslation('liveAdmin');
  if (excluded.length === 0) return <Typography.Text type="secondary">{t('plan.none')}</Typography.Text>;
  return (
    <ul className="live-excluded">
      {excluded.map((e) => (
        <li key={e.expertId}>
          <strong>
            {e.code} {e.name}
          </strong>
          {t('plan.colon')}
          <span className={e.why === 'CONFLICT' ? 'live-excluded__conflict' : undefined}>{t(`plan.why.${e.why}`)}</span>
          {e.cause && (
            <Typography.Text type="secondary" className="live-excluded__cause">
              {' ('}
              {t('plan.cause.text', {
                kind: e.cause.via === 'DECLARED' ? `${t(`plan.cause.${e.cause.kind}`)} · ${t('plan.cause.DECLARED')}` : t(`plan.cause.${e.cause.kind}`),
                org: e.cause.expertOrg,
              })}
              {')'}
            </Typography.Text>
          )}
        </li>
      ))}
    </ul>
  );
}
