import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AxiosProgressEvent } from 'axios';
import type { ContestPublic, PrelimDetail } from '@contest/shared';
import { ApiError, RequestCancelledError } from '../../../api';
import { api } from '../../../lib/api';
import { ok, participantInfo } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { prelimBrief, prelimFixture } from '../team/contest-fixtures';

const MB = 1024 * 1024;

/** A clock the fake transfers move on, so the speeds are exact. */
let clock = 0;

interface Transfers {
  /** Milliseconds the 8 MB download takes. */
  downloadMs?: number;
  /** Milliseconds the 4 MB upload takes. */
  uploadMs?: number;
  downloadError?: Error;
  /** Never answers (until aborted). */
  hangDownload?: boolean;
}

function schedule(prelimEnd: string | null): ContestPublic {
  return {
    name: '2025全国智慧医保大赛',
    now: new Date().toISOString(),
    currentPhase: 'prelimSubmission',
    phases: [
      { key: 'signUp', name: '报名', window: { start: null, end: null }, state: 'OPEN' },
      { key: 'prelimSubmission', name: '初赛材料提交', window: { start: null, end: prelimEnd }, state: 'OPEN' },
      { key: 'prelimReview', name: '初赛评审', window: null, state: 'UNSCHEDULED' },
      { key: 'finalReview', name: '决赛评审', window: null, state: 'UNSCHEDULED' },
    ],
  };
}

const fileOf = (uniqueNo: string, name: string, size: number) => ({ uniqueNo, name, extension: name.split('.').pop()!, size, filePath: `/api/attachment/stream/${uniqueNo}` });

function mockServer(options: { prelim?: PrelimDetail | null; contest?: ContestPublic; transfers?: Transfers } = {}) {
  const { transfers = {} } = options;
  const signals: AbortSignal[] = [];
  const get = vi.spyOn(api, 'get').mockImplementation((async (url: string, config?: { signal?: AbortSignal; onDownloadProgress?: (e: AxiosProgressEvent) => void }) => {
    switch (url) {
      case '/user/account':
        return ok(participantInfo());
      case '/messages/summary':
        return ok({ unreadCount: 0 });
      case '/prelim-doc/my':
        return ok(options.prelim === undefined ? prelimFixture('DRAFT') : options.prelim);
      case '/prelim-doc/my-brief':
        return ok(prelimBrief('DRAFT'));
      case '/dic/module':
      case '/dic/label':
        return ok({});
      case '/contest/public':
        return ok(options.contest ?? schedule(null));
      case '/attachment/speed': {
        signals.push(config!.signal!);
        if (transfers.hangDownload) {
          return new Promise((_resolve, reject) => config!.signal!.addEventListener('abort', () => reject(new RequestCancelledError())));
        }
        if (transfers.downloadError) throw transfers.downloadError;
        clock += (transfers.downloadMs ?? 1000) / 2;
        config!.onDownloadProgress?.({ loaded: 4 * MB } as AxiosProgressEvent);
        clock += (transfers.downloadMs ?? 1000) / 2;
        return { blob: new Blob([new Uint8Array(8 * MB)]), fileName: null };
      }
      default:
        throw new Error(`unexpected GET ${url}`);
    }
  }) as never);
  const post = vi.spyOn(api, 'post').mockImplementation((async (url: string, body: Blob, config: { onUploadProgress?: (e: AxiosProgressEvent) => void }) => {
    if (url !== '/attachment/speed') throw new Error(`unexpected POST ${url}`);
    clock += transfers.uploadMs ?? 8000;
    config.onUploadProgress?.({ loaded: body.size } as AxiosProgressEvent);
    return ok({ received: body.size });
  }) as never);
  return { get, post, signals };
}

async function startTest() {
  const button = await screen.findByRole('button', { name: '开始测速' });
  fireEvent.click(button);
}

describe('/user/speed-test', { timeout: 30_000 }, () => {
  beforeEach(() => {
    localStorage.setItem('AccessToken', 'token-1');
    clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
  });
  afterEach(() => vi.restoreAllMocks());

  it('measures both directions and estimates each kind at its ceiling and the saved files at their size', async () => {
    const prelim = prelimFixture('DRAFT', {
      fileMaxBytes: { application: 50 * MB, presentation: 100 * MB, video: 180 * MB, other: 20 * MB },
      application: fileOf('appl1', '申报书.pdf', 3 * MB),
      presentation: null,
    });
    const { post } = mockServer({ prelim });
    renderRoute('/user/speed-test');
    expect(await screen.findByRole('heading', { name: '上传速度测试' })).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: '下载测速进度' })).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: '上传测速进度' })).toBeTruthy();
    await startTest();

    await waitFor(() => expect(screen.getByTestId('speed-upload').textContent).toBe('0.5 MB/s'));
    expect(screen.getByTestId('speed-download').textContent).toBe('8 MB/s');
    expect(screen.getByTestId('speed-live').textContent).toBe('下载速度 8 MB/s，上传速度 0.5 MB/s');
    expect(screen.getByRole('progressbar', { name: '上传测速进度' }).getAttribute('aria-valuenow')).toBe('100');
    expect((post.mock.calls[0]![1] as Blob).size).toBe(4 * MB);

    // Until the participant's own ceilings arrive the estimates use the contest defaults: wait for them.
    await waitFor(() => expect(screen.getByTestId('speed-estimate-video').textContent).toBe('按当前上传速度 0.5 MB/s，180 MB 的视频约需 6 分钟'));
    const estimates = screen.getByTestId('speed-estimates');
    expect(within(estimates).getByTestId('speed-estimate-application').textContent).toBe('按当前上传速度 0.5 MB/s，50 MB 的申报书约需 2 分钟');
    expect(within(estimates).getByTestId('speed-estimate-saved').textContent).toBe('已上传的「申报书.pdf」（3 MB）按当前速度重新上传约需 6 秒');
    expect(within(estimates).getByTestId('speed-estimate-total').textContent).toContain('350 MB');
    expect(within(estimates).getByTestId('speed-estimate-total').textContent).toContain('12 分钟');
    // No deadline set: nothing to warn about.
    expect(screen.queryByTestId('speed-deadline-warning')).toBeNull();
    // The name may still carry the fading loading icon's label.
    expect(screen.getByRole('button', { name: /重新测速/ })).toBeTruthy();
  });

  it('warns when the materials deadline is nearer than twice the time a full set takes', async () => {
    // A full set at the default ceilings (950 MB) takes 32 minutes at 0.5 MB/s: 40 minutes left is too tight.
    mockServer({ prelim: null, contest: schedule(new Date(Date.now() + 40 * 60_000).toISOString()) });
    renderRoute('/user/speed-test');
    await startTest();
    const warning = await screen.findByTestId('speed-deadline-warning');
    expect(warning.className).toContain('ant-alert-warning');
    expect(warning.textContent).toMatch(/距初赛材料提交截止（\d{4}-\d\d-\d\d \d\d:\d\d，北京时间）仅剩 (39|40) 分钟，按当前速度上传全部材料约需 32 分钟/);
    // Without materials saved the defaults stand.
    expect(screen.getByTestId('speed-estimate-video').textContent).toBe('按当前上传速度 0.5 MB/s，500 MB 的视频约需 17 分钟');
    expect(screen.queryByTestId('speed-estimate-saved')).toBeNull();
  });

  it('does not warn when the deadline leaves room', async () => {
    // Three hours left. The warning is all the page draws from the schedule, so first show that
    // the schedule has arrived: at 0.125 MB/s a full set (950 MB) takes about 2 hours, too tight.
    const contest = schedule(new Date(Date.now() + 3 * 3600_000).toISOString());
    const slow = mockServer({ prelim: null, contest, transfers: { uploadMs: 32_000 } });
    renderRoute('/user/speed-test');
    await startTest();
    expect((await screen.findByTestId('speed-deadline-warning')).textContent).toContain('约需 2 小时');

    // At 0.5 MB/s (32 minutes) the same deadline, now in the cache, leaves room.
    slow.get.mockRestore();
    slow.post.mockRestore();
    mockServer({ prelim: null, contest });
    fireEvent.click(screen.getByRole('button', { name: /重新测速/ }));
    await waitFor(() => expect(screen.getByTestId('speed-estimate-total').textContent).toContain('32 分钟'));
    expect(screen.queryByTestId('speed-deadline-warning')).toBeNull();
  });

  it('shows a failure with the reason and measures again on request', async () => {
    const server = mockServer({ transfers: { downloadError: new ApiError({ status: 0, code: 'HTTP_ERROR', message: '请求失败', data: null }) } });
    renderRoute('/user/speed-test');
    await startTest();
    const error = await screen.findByTestId('speed-error');
    expect(error.textContent).toContain('测速失败');
    expect(error.textContent).toContain('请求失败');
    expect(screen.getByTestId('speed-live').textContent).toBe('测速失败');
    expect(screen.queryByTestId('speed-estimates')).toBeNull();
    expect(server.post).not.toHaveBeenCalled();

    server.get.mockRestore();
    server.post.mockRestore();
    mockServer();
    fireEvent.click(screen.getByRole('button', { name: /重新测速/ }));
    await screen.findByTestId('speed-estimates');
    expect(screen.queryByTestId('speed-error')).toBeNull();
  });

  it('stops the transfer when the page is left', async () => {
    const { signals } = mockServer({ transfers: { hangDownload: true } });
    const { unmount } = renderRoute('/user/speed-test');
    await startTest();
    await waitFor(() => expect(signals).toHaveLength(1));
    expect(screen.getByTestId('speed-live').textContent).toBe('测速中…');
    expect(signals[0]!.aborted).toBe(false);
    unmount();
    expect(signals[0]!.aborted).toBe(true);
  });

  it('is linked from the materials form, next to the uploads', async () => {
    mockServer();
    const { router } = renderRoute('/material-submission');
    const link = await screen.findByTestId('speed-test-link');
    expect(link.textContent).toBe('测试上传速度');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/speed-test'));
    expect(await screen.findByTestId('speed-test-page')).toBeTruthy();
  });

  it('speaks English', async () => {
    mockServer();
    renderRoute('/user/speed-test', { languages: ['en-US'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Start test' }));
    const video = await screen.findByTestId('speed-estimate-video');
    expect(video.textContent).toBe('At the current upload speed of 0.5 MB/s, a 500 MB video takes about 17 minutes');
  });
});
