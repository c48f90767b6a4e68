import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Result, Skeleton, Space, Typography } from 'antd';
import { ArrowLeftOutlined, LeftOutlined, RightOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { type ExpertProjectDetail, type ReviewRound, type SheetBody, type SheetView, type SheetViewStatus } from '@contest/shared';
import { ApiError } from '../../../api';
import { isStale } from '../../../components/admin-kit';
import { useConsoleHandle } from '../../../components/admin-kit/console-handle';
import { nameTab, setOpenTabs } from '../../../components/admin-kit/open-tabs';
import { watermarkLines } from '../../../components/admin-kit/watermark';
import { refusalText } from '../../../components/admin-kit/refusal-text';
import { moveFocusSoon } from '../../../components/a11y/move-focus';
import { useFeedback } from '../../../components/feedback';
import { useStaffInfo } from '../../../lib/session';
import { AbstainDialog } from '../components/AbstainDialog';
import { AbstainedSheet } from '../components/AbstainedSheet';
import { ReviewMaterials } from '../components/ReviewMaterials';
import { ScoreForm } from '../components/ScoreForm';
import { SheetStatusTag } from '../components/SheetStatusTag';
import {
  EXPERT_QUERY_KEYS,
  abstainSheet,
  fetchProject,
  fetchProjects,
  isAgreementRequired,
  isNotFound,
  isOutdatedRefusal,
  saveSheet,
  submitSheet,
} from '../expert-api';
import { ROUND_PAGES, detailPath } from '../paths';
import { useAgreementLost } from '../use-agreement';
import { useUnsavedGuard } from '../use-unsaved-guard';
import '../expert.css';
import '../expert-conflicts.css';

/** Where "continue" leads: a returned sheet first, then a draft, then a project not scored yet. */
const NEXT_ORDER: readonly SheetViewStatus[] = ['RETURNED', 'DRAFT', 'NONE'];

/** /expert/review-detail without an id: opens the next project needing work, or the list when none does. */
function NextProject({ round }: { round: ReviewRound }) {
  const { t } = useTranslation('expert');
  const pages = ROUND_PAGES[round];
  const agreementLost = useAgreementLost();
  const next = useQuery({
    queryKey: [...EXPERT_QUERY_KEYS.list(pages.slug), 'next'],
    queryFn: async () => {
      for (const status of NEXT_ORDER) {
        const page = await fetchProjects(pages.slug, { status, page: 1, size: 1 });
        if (page.list[0]) return page.list[0].id;
      }
      return null;
    },
    staleTime: 0,
    gcTime: 0,
  });
  useEffect(() => {
    if (isAgreementRequired(next.error)) agreementLost();
  }, [next.error, agreementLost]);

  if (next.isSuccess) return <Navigate to={next.data ? detailPath(round, next.data) : pages.list} replace />;
  if (next.isError) return <Navigate to={pages.list} replace />;
  return <Skeleton active paragraph={{ rows: 8 }} data-testid="next-loading" aria-label={t('detail.loading')} />;
}

function ProjectReview({ round, id }: { round: ReviewRound; id: string }) {
  const { t } = useTranslation('expert');
  const { message } = useFeedback();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const agreementLost = useAgreementLost();
  const info = useStaffInfo('EXPERT');
  const pages = ROUND_PAGES[round];
  const page = useRef<HTMLDivElement>(null);
  const [dirty, setDirty] = useState(false);
  // Raised after each reload: the form starts again from the server's sheet even when it looks the same.
  const [generation, setGeneration] = useState(0);
  // 回避 (docs/rules/review.md, "Abstaining"): the dialog, and the sheet the abstention answered.
  const [abstainOpen, setAbstainOpen] = useState(false);
  const [abstained, setAbstained] = useState<SheetView | null>(null);
  useUnsavedGuard(dirty);

  const detail = useQuery({
    queryKey: EXPERT_QUERY_KEYS.detail(pages.slug, id),
    queryFn: () => fetchProject(pages.slug, id),
    staleTime: 0,
    // Once abstained the project is no longer the expert's (its GET answers 404): the page keeps
    // what it showed, read-only, and reads it no more.
    enabled: abstained === null,
  });
  useEffect(() => {
    if (isAgreementRequired(detail.error)) agreementLost();
  }, [detail.error, agreementLost]);

  // The console's tab reads "初赛评分 · <project>": several scoring tabs stay told apart. The
  // project's name only, what the page shows (docs/rules/review.md, "Blind review (盲评)").
  const { title } = useConsoleHandle();
  const projectName = detail.data?.projectName;
  useEffect(() => {
    if (!title || !projectName) return;
    setOpenTabs('EXPERT', (list) => nameTab(list, { path: detailPath(round, id), title, name: projectName }));
  }, [title, projectName, round, id]);

  const watermark = info.data ? watermarkLines(info.data.code, info.data.account).join(' ') || null : null;

  // The list and the home's progress show the sheet's state too.
  const refreshOthers = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: EXPERT_QUERY_KEYS.list(pages.slug) }),
        queryClient.invalidateQueries({ queryKey: EXPERT_QUERY_KEYS.overview }),
      ]),
    [queryClient, pages.slug],
  );

  const reload = useCallback(async () => {
    setDirty(false);
    await Promise.all([detail.refetch(), refreshOthers()]);
    setGeneration((g) => g + 1);
  }, [detail, refreshOthers]);

  /** A write's answer is the project after it: shown at once, the form starting again from it. */
  const written = (next: ExpertProjectDetail) => {
    setDirty(false);
    queryClient.setQueryData(EXPERT_QUERY_KEYS.detail(pages.slug, id), next);
    setGeneration((g) => g + 1);
    void refreshOthers();
  };

  const refused = (error: unknown): never => {
    if (isStale(error)) {
      void message.warning(t('form.stale'));
      void reload();
    } else if (isAgreementRequired(error)) {
      setDirty(false);
      agreementLost();
    } else if (error instanceof ApiError && error.code !== 'HTTP_ERROR' && [400, 403, 404].includes(error.status)) {
      // The calls are silent: this is the only place the refusal is told.
      void message.error(refusalText(error) ?? error.message);
      if (isOutdatedRefusal(error)) void reload();
    }
    throw error;
  };

  const save = async (body: SheetBody) => {
    let next: ExpertProjectDetail;
    try {
      next = await saveSheet(pages.slug, id, body);
    } catch (error) {
      return refused(error);
    }
    void message.success(t('form.saved'));
    written(next);
    // The form is drawn anew with the saved version: focus goes back to 保存草稿, not to the page's top.
    moveFocusSoon(() => page.current?.querySelector<HTMLElement>('[data-testid="save-draft"]'));
  };

  const submit = async (body: SheetBody) => {
    let next: ExpertProjectDetail;
    try {
      next = await submitSheet(pages.slug, id, body);
    } catch (error) {
      return refused(error);
    }
    void message.success(t('form.submitted'));
    written(next);
    // The sheet turns read-only: focus goes to the project's title, which now says 已提交.
    moveFocusSoon(() => page.current?.querySelector<HTMLElement>('.expert-review__title'));
  };

  /** A refused abstention the page handles itself (reloaded, or the agreement): the dialog closes. */
  const abstainRefused = (error: unknown): boolean => {
    if (isStale(error) || isOutdatedRefusal(error)) {
      void message.warning(isStale(error) ? t('form.stale') : (refusalText(error) ?? t('form.stale')));
      setAbstainOpen(false);
      void reload();
      return true;
    }
    if (isAgreementRequired(error)) {
      setAbstainOpen(false);
      setDirty(false);
      agreementLost();
      return true;
    }
    return false;
  };

  const abstainDone = (sheet: SheetView) => {
    setDirty(false);
    setAbstainOpen(false);
    setAbstained(sheet);
    void message.success(t('abstain.done'));
    void refreshOthers();
    // The page turns read-only: focus goes to the project's title, which now says 已回避.
    moveFocusSoon(() => page.current?.querySelector<HTMLElement>('.expert-review__title'), { force: true });
  };

  const backToList = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(pages.list)} data-testid="back-to-list">
      {t('detail.back')}
    </Button>
  );

  if (detail.isPending) return <Skeleton active paragraph={{ rows: 10 }} data-testid="detail-loading" />;
  if (detail.isError) {
    if (isAgreementRequired(detail.error)) return null;
    const notFound = isNotFound(detail.error);
    return (
      <Result
        status={notFound ? '404' : 'warning'}
        title={notFound ? t('detail.notFound') : t('detail.loadFailed')}
        extra={
          <Space wrap>
            {backToList}
            {!notFound && <Button onClick={() => void detail.refetch()}>{t('common.retry')}</Button>}
          </Space>
        }
        data-testid="detail-error"
      />
    );
  }

  const project: ExpertProjectDetail = abstained ? { ...detail.data, sheet: abstained, editable: false } : detail.data;
  const sheet = project.sheet;
  const isAbstained = sheet?.status === 'ABSTAINED';
  const formKey = `${generation}:${project.id}:${sheet?.id ?? ''}:${sheet?.version ?? 0}:${sheet?.status ?? 'NONE'}:${project.editable}`;

  return (
    <div className="expert-review" data-testid="review-detail" ref={page}>
      <div className="expert-review__head">
        {backToList}
        <Typography.Title level={1} className="expert-review__title">
          {project.projectName} <SheetStatusTag status={sheet?.status ?? 'NONE'} />
        </Typography.Title>
        <Space className="expert-review__nav">
          <Button
            icon={<LeftOutlined />}
            disabled={!project.prevId}
            onClick={() => project.prevId && void navigate(detailPath(round, project.prevId))}
            data-testid="prev-project"
          >
            {t('detail.prev')}
          </Button>
          <Button
            icon={<RightOutlined />}
            iconPlacement="end"
            disabled={!project.nextId}
            onClick={() => project.nextId && void navigate(detailPath(round, project.nextId))}
            data-testid="next-project"
          >
            {t('detail.next')}
          </Button>
        </Space>
      </div>
      {sheet?.status === 'RETURNED' && (
        <Alert
          className="expert-review__returned"
          type="error"
          showIcon
          title={t('form.returned')}
          description={t('form.returnReason', { reason: sheet.returnReason || '--' })}
          data-testid="return-reason"
        />
      )}
      {isAbstained && sheet ? (
        // The expert no longer reviews the project: no materials, the sheet's state and reason only.
        <AbstainedSheet sheet={sheet} listPath={pages.list} />
      ) : (
        <div className="expert-review__body">
          <section className="expert-review__materials" aria-label={t('detail.materials')}>
            <ReviewMaterials detail={project} watermark={watermark} />
          </section>
          <aside className="expert-review__form" aria-label={t('form.title')}>
            <ScoreForm key={formKey} detail={project} onSave={save} onSubmit={submit} onDirtyChange={setDirty} />
            {project.editable && (
              <div className="expert-abstain" data-testid="abstain-box">
                <Typography.Text type="secondary">{t('abstain.hint')}</Typography.Text>
                <Button danger icon={<StopOutlined />} onClick={() => setAbstainOpen(true)} data-testid="abstain-open">
                  {t('abstain.open')}
                </Button>
              </div>
            )}
          </aside>
        </div>
      )}
      {project.editable && (
        <AbstainDialog
          open={abstainOpen}
          projectName={project.projectName}
          onAbstain={(reason) => abstainSheet(pages.slug, id, { reason, ...(sheet ? { version: sheet.version } : {}) })}
          onRefused={abstainRefused}
          onDone={abstainDone}
          onClose={() => setAbstainOpen(false)}
        />
      )}
    </div>
  );
}

/** /expert/review-detail/{id?} and /expert/review-admin-detail/{id?}: the materials beside the score sheet. */
export function ReviewDetailPage({ round }: { round: ReviewRound }) {
  const { id } = useParams();
  if (!id) return <NextProject round={round} />;
  // Another project is another page: its own form, its own unsaved state.
  return <ProjectReview key={id} round={round} id={id} />;
}

export function PrelimReviewDetailPage() {
  return <ReviewDetailPage round="PRELIMINARY" />;
}

export function FinalReviewDetailPage() {
  return <ReviewDetailPage round="FINAL" />;
}
