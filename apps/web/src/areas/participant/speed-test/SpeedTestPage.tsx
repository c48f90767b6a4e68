/**
 * 上传速度测试 (/user/speed-test; docs/decisions.md, "Speed-test page"): times a download and an upload against the speed
 * probes, then tells the participant how long each kind of material takes at its ceiling (and
 * their saved files at their real sizes), warning when the materials deadline is nearer than
 * twice a full set's upload time.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Progress, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatFileSize, type ContestAttachment, type PrelimDetail } from '@contest/shared';
import { isCancel } from '../../../api';
import { currentLocale } from '../../../i18n';
import { PARTICIPANT_PATHS } from '../routes';
import { deadlineIsTight, formatDuration, formatSpeed, planUploads, secondsFor, secondsUntil } from './speed-estimate';
import { probeDownload, probeUpload, type ProbeResult } from './speed-probe';
import { useContestSchedule, useMaterialsLimits } from './speed-test-api';
import './speed-test.css';
import { beijingTime } from '../../../lib/beijing-time';

type Stage = 'idle' | 'download' | 'upload' | 'done' | 'error';

interface RunState {
  stage: Stage;
  downloadPct: number;
  uploadPct: number;
  download: ProbeResult | null;
  upload: ProbeResult | null;
  error: string | null;
}

const IDLE: RunState = { stage: 'idle', downloadPct: 0, uploadPct: 0, download: null, upload: null, error: null };

/** Progress events come many a second: whole percents are all the bar shows anyway. */
const pct = (fraction: number) => Math.min(100, Math.floor(fraction * 100));

export function SpeedTestPage() {
  const { t } = useTranslation('participant');
  const [run, setRun] = useState<RunState>(IDLE);
  const controller = useRef<AbortController | null>(null);

  // Leaving the page stops whatever transfer is under way.
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async () => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    const { signal } = own;
    setRun({ ...IDLE, stage: 'download' });
    try {
      const download = await probeDownload({ signal, onProgress: (f) => setRun((r) => ({ ...r, downloadPct: pct(f) })) });
      if (signal.aborted) return;
      setRun((r) => ({ ...r, stage: 'upload', downloadPct: 100, download }));
      const upload = await probeUpload({ signal, onProgress: (f) => setRun((r) => ({ ...r, uploadPct: pct(f) })) });
      if (signal.aborted) return;
      setRun((r) => ({ ...r, stage: 'done', uploadPct: 100, upload }));
    } catch (err) {
      // Cancelled (left the page, or a new run): nothing to show. A 401 has been handled by the
      // client (session cleared, back to / with the login dialog).
      if (signal.aborted || isCancel(err)) return;
      setRun((r) => ({ ...r, stage: 'error', error: err instanceof Error && err.message ? err.message : null }));
    }
  }, []);

  const running = run.stage === 'download' || run.stage === 'upload';
  const status = (result: ProbeResult | null, active: boolean) =>
    result ? formatSpeed(result.bytesPerSecond) : active ? t('speedTest.measuring') : t('speedTest.pending');

  let announcement = '';
  if (run.stage === 'download' || run.stage === 'upload') announcement = t('speedTest.measuring');
  else if (run.stage === 'error') announcement = t('speedTest.failed');
  else if (run.stage === 'done' && run.download && run.upload) {
    announcement = t('speedTest.summary', { download: formatSpeed(run.download.bytesPerSecond), upload: formatSpeed(run.upload.bytesPerSecond) });
  }

  return (
    <section className="speed-test" data-testid="speed-test-page">
      {/* The page's one h1, drawn at the size of the level 4 title it was. */}
      <Typography.Title level={1} className="speed-test__title">
        {t('titles.speedTest')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('speedTest.intro')}</Typography.Paragraph>

      <Space wrap className="speed-test__actions">
        <Button type="primary" onClick={() => void start()} loading={running} disabled={running} data-testid="speed-start">
          {run.stage === 'idle' ? t('speedTest.start') : t('speedTest.retry')}
        </Button>
        <Link to={PARTICIPANT_PATHS.materialSubmission}>{t('speedTest.goMaterials')}</Link>
      </Space>

      <Card size="small" title={t('speedTest.results')} className="speed-test__card">
        {(['download', 'upload'] as const).map((dir) => (
          <div className="speed-test__row" key={dir}>
            <span className="speed-test__label" id={`speed-${dir}-label`}>
              {t(`speedTest.${dir}`)}
            </span>
            <Progress percent={run[`${dir}Pct`]} aria-label={t(`speedTest.${dir}Progress`)} className="speed-test__bar" />
            <strong className="speed-test__value" aria-describedby={`speed-${dir}-label`} data-testid={`speed-${dir}`}>
              {status(run[dir], run.stage === dir)}
            </strong>
          </div>
        ))}
        {/* Read out by screen readers as the run moves on: started, finished with figures, failed. */}
        <p className="speed-test__live" role="status" aria-live="polite" data-testid="speed-live">
          {announcement}
        </p>
      </Card>

      {run.stage === 'error' && (
        <Alert
          type="error"
          showIcon
          className="speed-test__alert"
          title={t('speedTest.failed')}
          description={
            <>
              {run.error && <div>{run.error}</div>}
              <div>{t('speedTest.failedHint')}</div>
            </>
          }
          data-testid="speed-error"
        />
      )}

      {run.stage === 'done' && run.upload && <Estimates upload={run.upload} />}
    </section>
  );
}

/** Per kind at its ceiling, the saved files at their sizes, a full set, and the deadline check. */
function Estimates({ upload }: { upload: ProbeResult }) {
  const { t } = useTranslation('participant');
  const locale = currentLocale();
  const doc = useMaterialsLimits().data ?? null;
  const schedule = useContestSchedule();
  const speed = upload.bytesPerSecond;
  const plan = planUploads(doc?.fileMaxBytes, speed);
  const duration = (seconds: number) => formatDuration(seconds, locale);

  const saved = savedFilesOf(doc);

  const contest = schedule.data;
  const phase = contest?.phases.find((p) => p.key === 'prelimSubmission');
  const end = phase?.state === 'OPEN' ? (phase.window?.end ?? null) : null;
  // The server's clock, moved on by the time since it answered: the device's may be wrong.
  const serverNow = contest ? Date.parse(contest.now) + (Date.now() - schedule.dataUpdatedAt) : Date.now();
  const remaining = secondsUntil(end, serverNow);
  const tight = deadlineIsTight(remaining, plan.totalSeconds);

  return (
    <Card size="small" title={t('speedTest.estimateTitle')} className="speed-test__card" data-testid="speed-estimates">
      {tight && remaining !== null && end && (
        <Alert
          type="warning"
          showIcon
          className="speed-test__alert"
          title={t('speedTest.deadlineWarning', {
            deadline: beijingTime(end, 'minute'),
            remaining: duration(remaining),
            total: duration(plan.totalSeconds),
          })}
          data-testid="speed-deadline-warning"
        />
      )}
      <ul className="speed-test__list">
        {plan.kinds.map((k) => (
          <li key={k.kind} data-testid={`speed-estimate-${k.kind}`}>
            {t('speedTest.estimate', {
              speed: formatSpeed(speed),
              size: formatFileSize(k.maxBytes),
              kind: t(`speedTest.kinds.${k.kind}`),
              duration: duration(k.seconds),
            })}
          </li>
        ))}
        {saved.map((file) => (
          <li key={file.uniqueNo} data-testid="speed-estimate-saved">
            {t('speedTest.estimateSaved', { name: file.name, size: formatFileSize(file.size), duration: duration(secondsFor(file.size, speed)) })}
          </li>
        ))}
        <li data-testid="speed-estimate-total">
          <strong>{t('speedTest.estimateTotal', { size: formatFileSize(plan.totalBytes), duration: duration(plan.totalSeconds) })}</strong>
        </li>
      </ul>
    </Card>
  );
}

function savedFilesOf(doc: PrelimDetail | null): ContestAttachment[] {
  if (!doc) return [];
  return [doc.application, doc.presentation, doc.video, ...doc.others].filter((f): f is ContestAttachment => f !== null && f.size > 0);
}
