import axios, {
  AxiosError,
  CanceledError,
  type AxiosProgressEvent,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import { MSG, TOAST_LONG_MS, TOAST_MS, type ApiEnvelope } from '@contest/shared';
import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  CANCEL_REQUEST,
  createHttpClient,
  fileNameFromContentDisposition,
  isCancel,
  serializeParams,
  toastDuration,
  BUSY_RETRIES,
  type BlobResult,
} from './http-client';

type Reply = (config: InternalAxiosRequestConfig) => Promise<AxiosResponse> | AxiosResponse;

function respond(
  config: InternalAxiosRequestConfig,
  status: number,
  data: unknown,
  headers: Record<string, string> = {},
): AxiosResponse {
  return { data, status, statusText: String(status), headers, config, request: {} };
}

function envelope<T>(status: number, message = '', data: T | null = null): ApiEnvelope<T | null> {
  const code = status === 200 ? 'OK' : status === 401 ? 'UNAUTHORIZED' : status === 409 ? 'SESSION_REPLACED' : 'BAD_REQUEST';
  return { status, code, message, data };
}

/** A client over a fake network: `reply` answers each call, `calls` records what was sent. */
function setup(initialPath = '/my-sign') {
  let pathname = initialPath;
  let reply: Reply = (config) => respond(config, 200, envelope(200, 'ok', { id: 1 }));
  const calls: InternalAxiosRequestConfig[] = [];
  const ui = {
    error: vi.fn<(message: string, durationMs: number) => void>(),
    closeAll: vi.fn<() => void>(),
    confirm: vi.fn(async () => true),
  };
  const navigate = vi.fn<(path: string) => void>();
  const openLogin = vi.fn<() => void>();
  const clearUserInfo = vi.fn<() => void>();
  const waits: number[] = [];
  const client = createHttpClient({
    wait: async (ms) => {
      waits.push(ms);
    },
    getPathname: () => pathname,
    storage: localStorage,
    ui,
    navigate,
    openLogin,
    clearUserInfo,
    adapter: async (config) => {
      calls.push(config);
      return reply(config);
    },
  });
  return {
    client,
    ui,
    navigate,
    openLogin,
    clearUserInfo,
    calls,
    waits,
    setPath: (path: string) => {
      pathname = path;
    },
    onReply: (next: Reply) => {
      reply = next;
    },
    /** Every call answers with this envelope, HTTP status = envelope status as the server does. */
    replyEnvelope: (status: number, message = '', data: unknown = null) => {
      reply = (config) => respond(config, status, envelope(status, message, data));
    },
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

describe('serializeParams', () => {
  it('joins arrays with literal commas and skips undefined/null', () => {
    expect(serializeParams({ ids: [1, 2, 3], a: undefined, b: null, name: '张 三&x', empty: [] })).toBe(
      'ids=1,2,3&name=%E5%BC%A0%20%E4%B8%89%26x',
    );
  });

  it('encodes each array item on its own', () => {
    expect(serializeParams({ tags: ['a b', null, 'c/d'] })).toBe('tags=a%20b,c%2Fd');
  });

  it('is the serializer the client sends with', async () => {
    const t = setup();
    await t.client.get('/team/list', { params: { ids: [1, 2, 3], page: 1, q: undefined } });
    expect(t.calls[0]?.baseURL).toBe('/api');
    expect(t.calls[0]?.withCredentials).toBe(true);
    expect(axios.getUri(t.calls[0])).toBe('/api/team/list?ids=1,2,3&page=1');
  });
});

describe('Authorization header', () => {
  it.each([
    ['/admin/x', 'Bearer admin-t'],
    ['/expert/x', 'Bearer expert-t'],
    ['/my-sign', 'Bearer user-t'],
  ])('on page %s sends %s', async (path, expected) => {
    localStorage.setItem('AccessToken', 'user-t');
    localStorage.setItem('AdminToken', 'admin-t');
    localStorage.setItem('ExpertToken', 'expert-t');
    const t = setup(path);
    await t.client.get('/user/account');
    expect(t.calls[0]?.headers.get('Authorization')).toBe(expected);
  });

  it('reads the path and token at request time', async () => {
    localStorage.setItem('AccessToken', 'user-t');
    const t = setup('/my-sign');
    await t.client.get('/a');
    t.setPath('/admin/home');
    localStorage.setItem('AdminToken', 'admin-2');
    await t.client.get('/b');
    expect(t.calls.map((c) => c.headers.get('Authorization'))).toEqual(['Bearer user-t', 'Bearer admin-2']);
  });

  it('sends no Authorization header without a token', async () => {
    const t = setup('/my-sign');
    await t.client.get('/a');
    expect(t.calls[0]?.headers.has('Authorization')).toBe(false);
  });
});

describe('success', () => {
  it('resolves with the whole envelope on status 200', async () => {
    const t = setup();
    t.replyEnvelope(200, 'ok', { unreadCount: 4 });
    const body = await t.client.get<{ unreadCount: number }>('/messages/summary');
    expect(body).toEqual({ status: 200, code: 'OK', message: 'ok', data: { unreadCount: 4 } });
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it('passes an isJson body through untouched, even one that looks like an error', async () => {
    const t = setup();
    const raw = { status: 500, message: 'not an envelope here', rows: [1] };
    t.onReply((config) => respond(config, 200, raw));
    await expect(t.client.get('/static/data.json', { isJson: true })).resolves.toBe(raw);
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it('sends post and put bodies with the right method', async () => {
    const t = setup();
    await t.client.post('/team', { name: 'A' });
    await t.client.put('/user/agreement', { agreed: true });
    await t.client.delete('/team/1');
    expect(t.calls.map((c) => [c.method, c.url, c.data])).toEqual([
      ['post', '/team', JSON.stringify({ name: 'A' })],
      ['put', '/user/agreement', JSON.stringify({ agreed: true })],
      ['delete', '/team/1', undefined],
    ]);
  });
});

describe('participant realm', () => {
  it('401 removes the token, clears user info, goes home and opens login', async () => {
    localStorage.setItem('AccessToken', 'user-t');
    const t = setup('/my-sign');
    t.replyEnvelope(401, '登录已失效');
    const err = await rejectionOf(t.client.get('/user/account'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: '登录已失效' });
    expect(localStorage.getItem('AccessToken')).toBeNull();
    expect(t.clearUserInfo).toHaveBeenCalledTimes(1);
    expect(t.navigate).toHaveBeenCalledWith('/');
    expect(t.openLogin).toHaveBeenCalledTimes(1);
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it('401 answering the login call does not redirect', async () => {
    const t = setup('/');
    t.replyEnvelope(401, '用户名或密码错误');
    await expect(t.client.post('/login', {}, { silent: true })).rejects.toMatchObject({ status: 401 });
    expect(t.navigate).not.toHaveBeenCalled();
    expect(t.openLogin).not.toHaveBeenCalled();
  });

  it('401 on the /login page does not redirect', async () => {
    const t = setup('/login');
    t.replyEnvelope(401);
    await expect(t.client.get('/user/account')).rejects.toBeInstanceOf(ApiError);
    expect(t.navigate).not.toHaveBeenCalled();
    expect(t.openLogin).not.toHaveBeenCalled();
  });

  it('other errors toast the server message', async () => {
    const t = setup();
    t.replyEnvelope(403, '没有权限');
    await expect(t.client.get('/team/1')).rejects.toMatchObject({ status: 403, message: '没有权限' });
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith('没有权限', TOAST_MS);
    expect(t.navigate).not.toHaveBeenCalled();
  });

  it('falls back to the generic text when the message is empty', async () => {
    const t = setup();
    t.replyEnvelope(500, '');
    await expect(t.client.get('/team/1')).rejects.toMatchObject({ status: 500 });
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith('请求异常，请稍后再试', TOAST_MS);
  });

  it('silent calls show no toast but still reject with the server message', async () => {
    const t = setup('/register');
    t.replyEnvelope(400, '验证码错误', { field: 'smsCode' });
    const err = await rejectionOf(t.client.post('/login/register', { username: 'a' }, { silent: true }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: '验证码错误', data: { field: 'smsCode' } });
    expect(t.ui.error).not.toHaveBeenCalled();
  });
});

describe('admin/expert realm', () => {
  it('400 toasts the message', async () => {
    const t = setup('/admin/system/roleManage');
    t.replyEnvelope(400, '角色名称已存在');
    await expect(t.client.post('/admin/role', {})).rejects.toMatchObject({ status: 400 });
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith('角色名称已存在', TOAST_MS);
  });

  it('400 on a silent (login) call shows nothing', async () => {
    const t = setup('/admin/login');
    t.replyEnvelope(400, '密码错误');
    await expect(t.client.post('/admin/login', {}, { silent: true })).rejects.toMatchObject({ message: '密码错误' });
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it('500 toasts the message', async () => {
    const t = setup('/expert/review');
    t.replyEnvelope(500, '服务器开小差了');
    await expect(t.client.get('/expert/projects')).rejects.toMatchObject({ status: 500 });
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith('服务器开小差了', TOAST_MS);
  });

  it('429 toasts the server message (many people behind one address), for experts and admins alike', async () => {
    for (const page of ['/expert/review', '/admin/home']) {
      const t = setup(page);
      t.replyEnvelope(429, '操作过于频繁，请稍后再试');
      await expect(t.client.get('/expert/projects')).rejects.toMatchObject({ status: 429, message: '操作过于频繁，请稍后再试' });
      expect(t.ui.error).toHaveBeenCalledExactlyOnceWith('操作过于频繁，请稍后再试', TOAST_MS);
    }
  });

  it('429 stays quiet for a caller that waits it out itself (the uploader)', async () => {
    const t = setup('/admin/home');
    t.replyEnvelope(429, '上传人数较多');
    await expect(t.client.get('/x', { quietStatuses: [429] })).rejects.toMatchObject({ status: 429 });
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it('does not toast statuses the spec leaves to the caller', async () => {
    const t = setup('/admin/home');
    t.replyEnvelope(403, '没有权限');
    await expect(t.client.get('/admin/x')).rejects.toMatchObject({ status: 403 });
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it('admin 401 removes the admin token and goes to /admin/login', async () => {
    localStorage.setItem('AdminToken', 'admin-t');
    localStorage.setItem('AccessToken', 'user-t');
    const t = setup('/admin/home');
    t.replyEnvelope(401);
    await expect(t.client.get('/admin/user/account')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('AdminToken')).toBeNull();
    expect(localStorage.getItem('AccessToken')).toBe('user-t');
    expect(t.navigate).toHaveBeenCalledExactlyOnceWith('/admin/login');
    expect(t.openLogin).not.toHaveBeenCalled();
  });

  it('expert 401 removes the expert token and goes to /expert/login', async () => {
    localStorage.setItem('ExpertToken', 'expert-t');
    const t = setup('/expert/review');
    t.replyEnvelope(401);
    await expect(t.client.get('/admin/user/account')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('ExpertToken')).toBeNull();
    expect(t.navigate).toHaveBeenCalledExactlyOnceWith('/expert/login');
  });
});

describe('403 PASSWORD_CHANGE_REQUIRED (docs/security.md "Accounts and reach")', () => {
  it.each([
    ['/admin/home', 'AdminToken', '/admin/change-password'],
    ['/expert/index', 'ExpertToken', '/expert/change-password'],
    ['/my-sign', 'AccessToken', '/alert-password'],
  ])('on %s goes to the realm\u2019s change-password page, keeps the token, toasts nothing', async (page, key, target) => {
    localStorage.setItem(key, 'tok');
    const t = setup(page);
    t.replyEnvelope(403, '密码由管理员设置，请先修改密码', { reason: 'PASSWORD_CHANGE_REQUIRED' });
    await expect(t.client.get('/anything')).rejects.toMatchObject({ status: 403, data: { reason: 'PASSWORD_CHANGE_REQUIRED' } });
    expect(t.navigate).toHaveBeenCalledExactlyOnceWith(target);
    expect(localStorage.getItem(key)).toBe('tok');
    expect(t.ui.error).not.toHaveBeenCalled();
    // Already there: no navigation loop.
    t.setPath(target);
    await expect(t.client.get('/anything')).rejects.toMatchObject({ status: 403 });
    expect(t.navigate).toHaveBeenCalledTimes(1);
  });

  it('a reach refusal does not move the page; it is toasted on the account pages', async () => {
    localStorage.setItem('AdminToken', 'tok');
    const t = setup('/admin/system/systemManage');
    t.replyEnvelope(403, '该账号拥有或将拥有您没有的权限，不能进行此操作', { reason: 'REACH' });
    await expect(t.client.post('/admin/system/account/1/reset-password')).rejects.toMatchObject({ status: 403 });
    expect(t.navigate).not.toHaveBeenCalled();
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith('该账号拥有或将拥有您没有的权限，不能进行此操作', TOAST_MS);
  });
});

describe('409 forced logout', () => {
  it('confirms once, redirects after the dialog, then rejects every later admin/expert response', async () => {
    localStorage.setItem('AdminToken', 'admin-t');
    const t = setup('/admin/home');
    let close!: (ok: boolean) => void;
    t.ui.confirm.mockImplementation(() => new Promise<boolean>((resolve) => (close = resolve)));
    t.replyEnvelope(409, '您的账号已在其他地方登录');

    await expect(t.client.get('/admin/user/account')).rejects.toMatchObject({ status: 409, code: 'SESSION_REPLACED' });
    expect(t.ui.confirm).toHaveBeenCalledExactlyOnceWith({
      title: '提示',
      content: '您的账号已在其他地方登录',
      okText: '确定',
      cancelText: '取消',
    });
    expect(localStorage.getItem('AdminToken')).toBeNull();
    expect(t.client.isSessionReplaced()).toBe(true);
    // The redirect waits for the user's answer.
    expect(t.navigate).not.toHaveBeenCalled();
    close(false);
    await vi.waitFor(() => expect(t.navigate).toHaveBeenCalledExactlyOnceWith('/admin/login'));

    // A success, another 409 and an expert-page call are all refused without any UI.
    t.replyEnvelope(200, 'ok');
    const afterSuccess = await rejectionOf(t.client.get('/admin/home/stats'));
    expect(afterSuccess).toBeInstanceOf(Error);
    expect((afterSuccess as Error).message).toBe('Previous 409 error encountered');
    t.replyEnvelope(409, 'again');
    await expect(t.client.get('/admin/user/account')).rejects.toMatchObject({ message: MSG.previous409 });
    t.setPath('/expert/review');
    t.replyEnvelope(500, 'boom');
    const err = await rejectionOf(t.client.get('/expert/projects'));
    expect((err as Error).message).toBe('Previous 409 error encountered');
    expect(t.ui.confirm).toHaveBeenCalledTimes(1);
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it('redirects the expert realm to /expert/login when OK is pressed', async () => {
    const t = setup('/expert/review');
    t.replyEnvelope(409, '');
    await expect(t.client.get('/expert/projects')).rejects.toBeInstanceOf(ApiError);
    expect(t.ui.confirm.mock.calls[0]).toEqual([expect.objectContaining({ content: MSG.sessionReplaced })]);
    await vi.waitFor(() => expect(t.navigate).toHaveBeenCalledExactlyOnceWith('/expert/login'));
  });

  it('only one confirm when two in-flight calls both get 409', async () => {
    const t = setup('/admin/home');
    t.replyEnvelope(409, 'elsewhere');
    const results = await Promise.allSettled([t.client.get('/a'), t.client.get('/b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(t.ui.confirm).toHaveBeenCalledTimes(1);
  });

  it('leaves participant calls working', async () => {
    const t = setup('/admin/home');
    t.replyEnvelope(409, 'elsewhere');
    await expect(t.client.get('/admin/x')).rejects.toMatchObject({ status: 409 });
    t.setPath('/my-sign');
    t.replyEnvelope(200, 'ok', { n: 1 });
    await expect(t.client.get('/team/my-brief')).resolves.toMatchObject({ status: 200, data: { n: 1 } });
  });

  it('resetSessionReplaced lets admin calls through again', async () => {
    const t = setup('/admin/home');
    t.replyEnvelope(409, 'elsewhere');
    await expect(t.client.get('/admin/x')).rejects.toMatchObject({ status: 409 });
    t.client.resetSessionReplaced();
    t.replyEnvelope(200, 'ok');
    await expect(t.client.get('/admin/x')).resolves.toMatchObject({ status: 200 });
    expect(t.client.isSessionReplaced()).toBe(false);
  });
});

describe('HTTP-level failure', () => {
  it('network error closes toasts, then shows the fallback', async () => {
    const t = setup();
    t.onReply((config) => {
      throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
    });
    const err = await rejectionOf(t.client.get('/team/1'));
    expect(err).toMatchObject({ status: 0, code: 'HTTP_ERROR', message: MSG.requestFailed });
    expect(t.ui.closeAll).toHaveBeenCalledTimes(1);
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith('请求异常，请稍后再试', TOAST_MS);
    expect(t.ui.closeAll.mock.invocationCallOrder[0]).toBeLessThan(t.ui.error.mock.invocationCallOrder[0]!);
  });

  it('a non-JSON error page shows the fallback', async () => {
    const t = setup('/admin/home');
    t.onReply((config) => respond(config, 502, '<html>Bad Gateway</html>'));
    await expect(t.client.get('/admin/x')).rejects.toMatchObject({ status: 502, code: 'HTTP_ERROR' });
    expect(t.ui.closeAll).toHaveBeenCalledTimes(1);
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith(MSG.requestFailed, TOAST_MS);
  });

  it('a non-envelope error body with a message shows that message', async () => {
    const t = setup();
    t.onReply((config) => respond(config, 504, { message: '网关超时' }));
    await expect(t.client.get('/x')).rejects.toMatchObject({ status: 504, message: '网关超时' });
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith('网关超时', TOAST_MS);
  });
});

describe('cancellation', () => {
  it('a cancelled request rejects silently and is recognisable', async () => {
    const t = setup();
    t.onReply((config) => {
      throw new CanceledError(undefined, config);
    });
    const err = await rejectionOf(t.client.get('/x'));
    expect(isCancel(err)).toBe(true);
    expect((err as Record<string, unknown>)[CANCEL_REQUEST]).toBe(true);
    expect(err).not.toBeInstanceOf(ApiError);
    expect(t.ui.error).not.toHaveBeenCalled();
    expect(t.ui.closeAll).not.toHaveBeenCalled();
  });

  it('an AbortController abort is a cancellation too', async () => {
    const t = setup();
    const controller = new AbortController();
    t.onReply(
      (config) =>
        new Promise<AxiosResponse>((_, reject) => {
          config.signal?.addEventListener?.('abort', () => reject(new CanceledError(undefined, config)));
        }),
    );
    const pending = t.client.get('/attachment/speed', { signal: controller.signal });
    await vi.waitFor(() => expect(t.calls).toHaveLength(1));
    controller.abort();
    expect(isCancel(await rejectionOf(pending))).toBe(true);
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it('isCancel is false for other errors', () => {
    expect(isCancel(new Error('x'))).toBe(false);
    expect(isCancel(new ApiError({ status: 400, code: 'BAD_REQUEST', message: 'x', data: null }))).toBe(false);
    expect(isCancel(null)).toBe(false);
    expect(isCancel({ cancelRequest: true })).toBe(true);
  });
});

describe('blob responses', () => {
  it('a JSON blob is handled as an envelope: error toast and rejection', async () => {
    const t = setup();
    const json = new Blob([JSON.stringify(envelope(400, '文件不存在'))], { type: 'application/json' });
    t.onReply((config) => respond(config, 400, json));
    const err = await rejectionOf(t.client.get('/attachment/stream/9', { responseType: 'blob' }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, message: '文件不存在' });
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith('文件不存在', TOAST_MS);
  });

  it('a JSON blob 401 triggers the participant redirect', async () => {
    localStorage.setItem('AccessToken', 'user-t');
    const t = setup('/my-sign');
    const json = new Blob([JSON.stringify(envelope(401))], { type: 'application/json;charset=utf-8' });
    t.onReply((config) => respond(config, 401, json));
    await expect(t.client.get('/template/public', { responseType: 'blob' })).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('AccessToken')).toBeNull();
    expect(t.openLogin).toHaveBeenCalledTimes(1);
  });

  it('a file blob resolves with the blob and its UTF-8 file name', async () => {
    const t = setup();
    const file = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    t.onReply((config) =>
      respond(config, 200, file, {
        'Content-Disposition': `attachment; filename="fallback.pdf"; filename*=UTF-8''${encodeURIComponent('初赛材料 v2.pdf')}`,
      }),
    );
    const result = (await t.client.get('/attachment/stream/9', { responseType: 'blob' })) as BlobResult;
    expect(result.blob).toBe(file);
    expect(result.fileName).toBe('初赛材料 v2.pdf');
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it('a file blob without Content-Disposition has no name', async () => {
    const t = setup();
    const file = new Blob(['x'], { type: 'application/octet-stream' });
    t.onReply((config) => respond(config, 200, file));
    await expect(t.client.request({ url: '/f', responseType: 'blob' })).resolves.toEqual({ blob: file, fileName: null });
  });
});

describe('fileNameFromContentDisposition', () => {
  it.each([
    [`attachment; filename*=UTF-8''%E6%8A%A5%E5%90%8D%E8%A1%A8.xlsx`, '报名表.xlsx'],
    [`attachment; filename*=utf-8'zh-cn'%E6%8A%A5.doc; filename="b.doc"`, '报.doc'],
    [`attachment; filename="plain name.pdf"`, 'plain name.pdf'],
    ['attachment; filename=bare.zip', 'bare.zip'],
    ['attachment; filename="%E4%B8%AD%E6%96%87.txt"', '中文.txt'],
    [`attachment; filename*=UTF-8''%E0%A4%A; filename="ok.txt"`, 'ok.txt'],
    ['inline', null],
    [null, null],
  ])('%s -> %s', (header, expected) => {
    expect(fileNameFromContentDisposition(header)).toBe(expected);
  });
});

describe('toast duration', () => {
  it('is 3000 ms up to 25 characters and 5000 ms beyond', () => {
    expect(toastDuration('a'.repeat(25))).toBe(TOAST_MS);
    expect(toastDuration('a'.repeat(26))).toBe(TOAST_LONG_MS);
    expect(toastDuration('请'.repeat(25))).toBe(3000);
    expect(toastDuration('请'.repeat(26))).toBe(5000);
  });

  it('is applied to toasts', async () => {
    const t = setup();
    const long = '报名信息不完整，请补充团队成员、单位类型与参赛方向后再提交审核';
    expect(Array.from(long).length).toBeGreaterThan(25);
    t.replyEnvelope(400, long);
    await expect(t.client.get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(t.ui.error).toHaveBeenCalledExactlyOnceWith(long, 5000);
  });
});

describe('progress', () => {
  it('passes upload and download progress callbacks through', async () => {
    const t = setup();
    const onUploadProgress = vi.fn<(e: AxiosProgressEvent) => void>();
    const onDownloadProgress = vi.fn<(e: AxiosProgressEvent) => void>();
    t.onReply((config) => {
      config.onUploadProgress?.({ loaded: 5, total: 10, bytes: 5, lengthComputable: true, upload: true });
      config.onDownloadProgress?.({ loaded: 7, total: 7, bytes: 7, lengthComputable: true, download: true });
      return respond(config, 200, envelope(200, 'ok', { filePath: '/f/1' }));
    });
    const form = new FormData();
    form.append('chunk', '0');
    await expect(
      t.client.post('/attachment/piece/upload', form, { onUploadProgress, onDownloadProgress }),
    ).resolves.toMatchObject({ data: { filePath: '/f/1' } });
    expect(onUploadProgress).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ loaded: 5, total: 10 }));
    expect(onDownloadProgress).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ loaded: 7 }));
  });
});

describe('busy refusals (docs/performance.md, "Sign-in bursts")', () => {
  const busy = { reason: 'BUSY', retryAfterSeconds: 2 };
  const busyReply = (config: InternalAxiosRequestConfig) => respond(config, 503, { status: 503, code: 'SERVICE_UNAVAILABLE', message: MSG.busy, data: busy });

  it.each(['/my-sign', '/admin/login'])('on %s a call refused 503 BUSY is sent again after about Retry-After, without a toast', async (path) => {
    const t = setup(path);
    let n = 0;
    t.onReply((config) => (++n <= 2 ? busyReply(config) : respond(config, 200, envelope(200, '登录成功', { accessToken: 'x' }))));
    await expect(t.client.post('/login', { username: 'u' })).resolves.toMatchObject({ status: 200, message: '登录成功' });
    expect(t.calls).toHaveLength(3);
    expect(t.calls.map((c) => c.data)).toEqual(Array(3).fill(JSON.stringify({ username: 'u' })));
    // Spread around the server's 2 s so a refused crowd does not come back at one instant.
    expect(t.waits).toHaveLength(2);
    for (const ms of t.waits) expect(ms >= 1000 && ms <= 3000).toBe(true);
    expect(t.ui.error).not.toHaveBeenCalled();
  });

  it.each(['/my-sign', '/admin/login'])('on %s, still busy after the retries, the refusal is shown', async (path) => {
    const t = setup(path);
    t.onReply(busyReply);
    await expect(t.client.post('/login', {})).rejects.toMatchObject({ status: 503, message: MSG.busy });
    expect(t.calls).toHaveLength(1 + BUSY_RETRIES);
    expect(t.ui.error).toHaveBeenCalledWith(MSG.busy, expect.any(Number));
  });

  it('another 503 (not BUSY) is not sent again', async () => {
    const t = setup('/my-sign');
    t.replyEnvelope(503, '短信发送失败', null);
    await expect(t.client.post('/sms/send', {})).rejects.toMatchObject({ status: 503 });
    expect(t.calls).toHaveLength(1);
    expect(t.waits).toEqual([]);
  });
});

