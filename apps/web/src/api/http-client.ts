import type { AxiosAdapter, AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios';
import {
  ACCOUNT_REFUSAL,
  API_BASE,
  MSG,
  PASSWORD_CHANGE_REQUIRED,
  TOAST_LONG_MS,
  TOAST_LONG_THRESHOLD,
  TOAST_MS,
  type ApiEnvelope,
  type Realm,
} from '@contest/shared';
import { changePasswordPathOf, loginPathOf, realmOfPath, tokenKeyOf } from './realm';

/** Marks a request the caller aborted; the chunk uploader reports the same word in its results. */
export const CANCEL_REQUEST = 'cancelRequest';

export interface RequestConfig<D = unknown> extends AxiosRequestConfig<D> {
  /**
   * No toast for envelope errors: the login, register, find-password, change-password and SMS
   * screens show the server message next to the offending field instead.
   */
  silent?: boolean;
  /** No toast for envelope errors with these statuses: the caller handles them (the uploader waits out a 429). */
  quietStatuses?: readonly number[];
  /** The body is not an envelope (e.g. a static JSON file); it is returned untouched. */
  isJson?: boolean;
}

/** Per-call options of the get/post/put/delete helpers; url, method and body come from the arguments. */
export type CallConfig = Omit<RequestConfig, 'url' | 'method' | 'data'>;

export interface BlobResult {
  blob: Blob;
  /** From Content-Disposition; null when the server named no file. */
  fileName: string | null;
}

/** `HTTP_ERROR` is the client's own code for failures that never produced an envelope. */
export type ClientErrorCode = ApiEnvelope['code'] | 'HTTP_ERROR';

/** Every non-200 outcome that reached the server (or failed on the way) rejects with this. */
export class ApiError<T = unknown> extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ClientErrorCode;
  readonly data: T;

  constructor(
    init: { status: number; code: ClientErrorCode; message: string; data: T },
    options?: ErrorOptions,
  ) {
    super(init.message, options);
    this.status = init.status;
    this.code = init.code;
    this.data = init.data;
  }
}

/** Rejection of a request the caller aborted; never shown to the user. */
export class RequestCancelledError extends Error {
  override readonly name = 'RequestCancelledError';
  readonly [CANCEL_REQUEST] = true;

  constructor(options?: ErrorOptions) {
    super(CANCEL_REQUEST, options);
  }
}

/**
 * Rejection of every admin/expert call once the session was replaced elsewhere (409): the
 * forced-logout dialog is already up, so nothing else may toast, redirect or render data.
 */
export class SessionReplacedError extends Error {
  override readonly name = 'SessionReplacedError';

  constructor() {
    super(MSG.previous409);
  }
}

type AxiosModule = typeof import('axios');

let axiosModule: Promise<AxiosModule> | undefined;
/**
 * axios is fetched when the first client is made, not with the page: the home page paints
 * without it (docs/decisions.md, "Home page JavaScript budget").
 */
const loadAxios = (): Promise<AxiosModule> =>
  (axiosModule ??= import('axios').catch((err: unknown) => {
    // A failed fetch (network gone) is tried again by the next call.
    axiosModule = undefined;
    throw err;
  }));

/** True for our cancellation error, a raw axios cancel, or an upload result flagged `cancelRequest`. */
export function isCancel(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const flags = err as Record<string, unknown>;
  // What axios.isCancel reads (its CanceledError sets it), without loading axios to ask.
  return Boolean(flags.__CANCEL__) || flags[CANCEL_REQUEST] === true;
}

export function toastDuration(message: string): number {
  // Code points, not UTF-16 units, so a rare CJK character outside the BMP counts once.
  return Array.from(message).length > TOAST_LONG_THRESHOLD ? TOAST_LONG_MS : TOAST_MS;
}

function encodeParamValue(value: unknown): string {
  if (value instanceof Date) return encodeURIComponent(value.toISOString());
  if (typeof value === 'object') return encodeURIComponent(JSON.stringify(value));
  return encodeURIComponent(String(value));
}

/**
 * Query string with arrays comma-separated (`ids=1,2,3`, docs/rules/screens.md, "Calls and answers") rather than axios'
 * `ids[]=1&ids[]=2`, because the server splits on commas. The commas stay literal; each item is
 * encoded on its own. Absent values and empty arrays are left out: the server reads both as "no filter".
 */
export function serializeParams(params: unknown): string {
  if (params instanceof URLSearchParams) return params.toString();
  if (typeof params !== 'object' || params === null) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const items: unknown[] = Array.isArray(value) ? value.filter((v) => v !== undefined && v !== null) : [value];
    if (items.length === 0) continue;
    parts.push(`${encodeURIComponent(key)}=${items.map(encodeParamValue).join(',')}`);
  }
  return parts.join('&');
}

function decodePercent(value: string, charset: string): string | null {
  try {
    if (charset === 'iso-8859-1') {
      return value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * File name from a Content-Disposition header. RFC 5987 `filename*=UTF-8''...` wins because
 * it is the only form that carries Chinese names reliably; plain `filename=` is the fallback,
 * and is percent-decoded too because many servers put URL-encoded names there.
 */
export function fileNameFromContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;

  const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(header)?.[1];
  if (extended) {
    const value = extended.trim().replace(/^"(.*)"$/, '$1');
    const parts = /^([^']*)'[^']*'(.*)$/.exec(value);
    const charset = (parts?.[1] ?? 'utf-8').toLowerCase();
    const decoded = decodePercent(parts?.[2] ?? value, charset);
    if (decoded) return decoded;
  }

  const plain = /(?:^|;)\s*filename\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/i.exec(header)?.[1];
  if (plain === undefined) return null;
  let name = plain.trim();
  if (name.startsWith('"')) name = name.slice(1, -1).replace(/\\(.)/g, '$1');
  if (/%[0-9a-f]{2}/i.test(name)) name = decodePercent(name, 'utf-8') ?? name;
  return name || null;
}

export interface ConfirmOptions {
  title: string;
  content: string;
  okText: string;
  cancelText: string;
}

/** The UI the client drives; injected so the client needs neither antd nor a router. */
export interface ClientUi {
  error(message: string, durationMs: number): void;
  closeAll(): void;
  /** Resolves true for OK, false for cancel/close. */
  confirm(opts: ConfirmOptions): Promise<boolean>;
}

export interface ClientDeps {
  /** The page path, read on every request: it picks the realm and so the token. */
  getPathname(): string;
  storage: Storage;
  ui: ClientUi;
  navigate(path: string): void;
  /** Opens the participant login dialog. */
  openLogin(): void;
  clearUserInfo?(): void;
  /** Tests replace the network with this. */
  adapter?: AxiosAdapter;
  /**
   * The text of a staff refusal in the page's language (components/admin-kit/refusal-text.ts);
   * null or absent: the server's message as sent.
   */
  describe?(body: ApiEnvelope): string | null;
  /** Waits before a busy call is sent again; tests pass their own clock. */
  wait?(ms: number): Promise<void>;
}

/** Times a call refused 503 BUSY is sent again before its refusal is shown (docs/performance.md, "Sign-in bursts"). */
export const BUSY_RETRIES = 4;

export interface MethodCall {
  <T = unknown>(url: string, config: CallConfig & { isJson: true }): Promise<T>;
  <T = unknown>(url: string, config: CallConfig & { responseType: 'blob' }): Promise<BlobResult | ApiEnvelope<T>>;
  <T = unknown>(url: string, config?: CallConfig): Promise<ApiEnvelope<T>>;
}

export interface BodyCall {
  <T = unknown>(url: string, data: unknown, config: CallConfig & { isJson: true }): Promise<T>;
  <T = unknown>(
    url: string,
    data: unknown,
    config: CallConfig & { responseType: 'blob' },
  ): Promise<BlobResult | ApiEnvelope<T>>;
  <T = unknown>(url: string, data?: unknown, config?: CallConfig): Promise<ApiEnvelope<T>>;
}

export interface HttpClient {
  /** Resolves the raw body when `isJson`. */
  request<T = unknown>(config: RequestConfig & { isJson: true }): Promise<T>;
  /** A file resolves as `{ blob, fileName }`; a JSON body in the blob is treated as an envelope. */
  request<T = unknown>(config: RequestConfig & { responseType: 'blob' }): Promise<BlobResult | ApiEnvelope<T>>;
  /** Resolves the whole envelope when `status` is 200. */
  request<T = unknown>(config: RequestConfig): Promise<ApiEnvelope<T>>;
  get: MethodCall;
  delete: MethodCall;
  post: BodyCall;
  put: BodyCall;
  /** Called after a fresh admin/expert login so calls flow again after a forced logout. */
  resetSessionReplaced(): void;
  isSessionReplaced(): boolean;
}

function isEnvelope(body: unknown): body is ApiEnvelope {
  return typeof body === 'object' && body !== null && typeof (body as { status?: unknown }).status === 'number';
}

function isBlob(body: unknown): body is Blob {
  return typeof Blob !== 'undefined' && body instanceof Blob;
}

/** application/json and the +json family; anything else in a blob is a real file. */
function isJsonBlob(blob: Blob): boolean {
  return /(^|\/|\+)json\b/i.test(blob.type);
}

function serverMessageOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' ? message : '';
}

/** `data.reason` of a refusal (403s carry one: docs/security.md). */
const reasonOf = (body: ApiEnvelope): unknown => (body.data as { reason?: unknown } | null)?.reason;

/** The API path without base, so '/api/login' and 'login' both read as '/login'. */
function apiPathOf(url: string | undefined): string {
  let path = url ?? '';
  if (path.startsWith(`${API_BASE}/`)) path = path.slice(API_BASE.length);
  return `/${path.replace(/^\/+/, '')}`;
}

/** Seconds to wait before sending again a call refused 503 BUSY; null for any other answer. */
function busyRetryAfterOf(body: unknown): number | null {
  if (!isEnvelope(body) || body.status !== 503) return null;
  const data = body.data as { reason?: unknown; retryAfterSeconds?: unknown } | null;
  if (data?.reason !== 'BUSY') return null;
  const seconds = Number(data.retryAfterSeconds);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 10) : 1;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createHttpClient(deps: ClientDeps): HttpClient {
  const wait = deps.wait ?? sleep;
  // Fetched at once, so the first call rarely waits for it; a failure is reported by the calls.
  loadAxios().catch(() => {});
  let instance: AxiosInstance | undefined;
  const instanceOf = ({ default: axios }: AxiosModule): AxiosInstance =>
    (instance ??= axios.create({
      baseURL: API_BASE,
      withCredentials: true,
      paramsSerializer: { serialize: serializeParams },
      // The envelope, not the HTTP status, decides the outcome, so every response comes to settle().
      validateStatus: () => true,
      ...(deps.adapter ? { adapter: deps.adapter } : {}),
    }));

  // One flag for admin and expert alike: after a 409 every later admin/expert answer is rejected (docs/rules/screens.md, "Session and redirects").
  let sessionReplaced = false;

  const toast = (message: string) => deps.ui.error(message, toastDuration(message));

  function assertSessionLive(realm: Realm): void {
    if (realm !== 'USER' && sessionReplaced) throw new SessionReplacedError();
  }

  function failHttp(realm: Realm, status: number, body: unknown, cause?: unknown): never {
    assertSessionLive(realm);
    const message = serverMessageOf(body) || MSG.requestFailed;
    // A dead network tends to fail several calls at once; one toast is enough.
    deps.ui.closeAll();
    toast(message);
    throw new ApiError({ status, code: 'HTTP_ERROR', message, data: null }, { cause });
  }

  /**
   * A session whose password was set by someone else may only change it (docs/security.md):
   * every other call answers 403 PASSWORD_CHANGE_REQUIRED, and the page goes to the form.
   */
  function onPasswordChangeRequired(body: ApiEnvelope, realm: Realm): boolean {
    if (reasonOf(body) !== PASSWORD_CHANGE_REQUIRED) return false;
    const path = changePasswordPathOf(realm);
    if (deps.getPathname() !== path) deps.navigate(path);
    return true;
  }

  function onParticipantError(body: ApiEnvelope, config: RequestConfig): void {
    if (onPasswordChangeRequired(body, 'USER')) return;
    if (body.status === 401) {
      deps.storage.removeItem(tokenKeyOf('USER'));
      deps.clearUserInfo?.();
      // On the login page (or a login call) the 401 is the answer itself, not an expired session.
      const onLogin = deps.getPathname() === '/login' || apiPathOf(config.url).startsWith('/login');
      if (!onLogin) {
        deps.navigate('/');
        deps.openLogin();
      }
      return;
    }
    if (!config.silent) toast(body.message || MSG.requestFailed);
  }

  function onStaffError(body: ApiEnvelope, config: RequestConfig, realm: Realm): void {
    if (onPasswordChangeRequired(body, realm)) return;
    const message = deps.describe?.(body) || body.message || MSG.requestFailed;
    switch (body.status) {
      // 429: too many calls (docs/security.md, "Limits behind one address"): the server's message,
      // never a page left empty without a word; the uploader waits it out with quietStatuses.
      case 400:
      case 429:
        if (!config.silent) toast(message);
        return;
      case 403:
        // An account out of the caller's reach (docs/security.md): every account page says it alike.
        if (reasonOf(body) === ACCOUNT_REFUSAL.reach && !config.silent) toast(message);
        return;
      case 500:
      case 503:
        // Not gated by `silent`: the login forms place 400s under a field but have no spot for a server fault.
        toast(message);
        return;
      case 401:
        deps.storage.removeItem(tokenKeyOf(realm));
        deps.navigate(loginPathOf(realm));
        return;
      case 409: {
        sessionReplaced = true;
        // The server has already revoked the token; keeping it would only earn more 409s.
        deps.storage.removeItem(tokenKeyOf(realm));
        const loginPath = loginPathOf(realm);
        // The caller is not kept waiting on the dialog; the redirect follows whichever button is pressed.
        void deps.ui
          .confirm({
            title: MSG.confirmTitle,
            content: body.message || MSG.sessionReplaced,
            okText: MSG.confirmOk,
            cancelText: MSG.confirmCancel,
          })
          .catch(() => false)
          .then(() => deps.navigate(loginPath));
        return;
      }
      default:
        // No toast for other admin/expert statuses (docs/rules/screens.md, "Error toasts"); the caller decides.
        return;
    }
  }

  async function settle(
    { AxiosHeaders }: AxiosModule,
    response: AxiosResponse,
    config: RequestConfig,
    realm: Realm,
  ): Promise<unknown> {
    assertSessionLive(realm);
    const httpOk = response.status >= 200 && response.status < 300;
    if (config.isJson && httpOk) return response.data;

    let body: unknown = response.data;
    if (isBlob(body)) {
      if (!isJsonBlob(body)) {
        if (!httpOk) return failHttp(realm, response.status, null);
        const header = AxiosHeaders.from(response.headers as InstanceType<typeof AxiosHeaders>).get('content-disposition');
        return { blob: body, fileName: fileNameFromContentDisposition(typeof header === 'string' ? header : null) };
      }
      // A download endpoint answers errors (and sometimes success) with an envelope inside the blob.
      try {
        body = JSON.parse(await body.text()) as unknown;
      } catch (err) {
        return failHttp(realm, response.status, null, err);
      }
      // Another call may have hit a 409 while this blob was being read.
      assertSessionLive(realm);
    }

    if (!isEnvelope(body)) return failHttp(realm, response.status, body);
    if (body.status === 200) return body;

    const quiet = config.silent || config.quietStatuses?.includes(body.status);
    if (realm === 'USER') onParticipantError(body, { ...config, silent: quiet });
    else onStaffError(body, { ...config, silent: quiet }, realm);
    throw new ApiError(body);
  }

  async function send(config: RequestConfig): Promise<unknown> {
    // Decided once per call so the token sent and the error handling belong to the same realm.
    const realm = realmOfPath(deps.getPathname());
    const { silent: _silent, isJson: _isJson, quietStatuses: _quiet, ...axiosConfig } = config;

    const token = deps.storage.getItem(tokenKeyOf(realm));
    let lib: AxiosModule;
    try {
      lib = await loadAxios();
    } catch (err) {
      return failHttp(realm, 0, undefined, err);
    }
    const { default: axios, AxiosHeaders } = lib;
    const http = instanceOf(lib);
    const headers = new AxiosHeaders(config.headers as InstanceType<typeof AxiosHeaders> | undefined);
    if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);

    let response: AxiosResponse;
    for (let attempt = 0; ; attempt++) {
      try {
        response = await http.request({ ...axiosConfig, headers });
      } catch (err) {
        if (axios.isCancel(err)) throw new RequestCancelledError({ cause: err });
        // Reached only when a caller passed its own validateStatus.
        if (axios.isAxiosError(err) && err.response) response = err.response;
        else return failHttp(realm, 0, axios.isAxiosError(err) ? err.response?.data : undefined, err);
      }
      // A busy refusal (a burst of sign-ins) was refused before anything of the call was used, so it
      // is sent again after the server's Retry-After, spread so the crowd does not return at once;
      // the caller sees a slower answer (its button keeps spinning), not an error.
      const retryAfter = busyRetryAfterOf(response.data);
      if (retryAfter === null || attempt >= BUSY_RETRIES) break;
      await wait(retryAfter * 1000 * (0.5 + Math.random()));
    }
    return settle(lib, response, config, realm);
  }

  const client = {
    request: (config: RequestConfig) => send(config),
    get: (url: string, config?: CallConfig) => send({ ...config, url, method: 'get' }),
    delete: (url: string, config?: CallConfig) => send({ ...config, url, method: 'delete' }),
    post: (url: string, data?: unknown, config?: CallConfig) => send({ ...config, url, method: 'post', data }),
    put: (url: string, data?: unknown, config?: CallConfig) => send({ ...config, url, method: 'put', data }),
    resetSessionReplaced: () => {
      sessionReplaced = false;
    },
    isSessionReplaced: () => sessionReplaced,
  };
  // The overloads only narrow the result type; one implementation serves them all.
  return client as unknown as HttpClient;
}
