/** Calls of the portal's API from a bench: the envelope, sign-ins, client addresses. */

export interface Envelope<T> {
  status: number;
  code: string;
  message: string;
  data: T;
}

/** One call; throws with the answer unless it is HTTP 200 (the bench must not time failures). */
export async function call<T>(url: string, init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text.slice(0, 500)}`);
  return (JSON.parse(text) as Envelope<T>).data;
}

let ipSeq = 0;
/**
 * A new client address for X-Forwarded-For (the app started with TRUST_PROXY), as behind the
 * production proxy: the per-IP login limit is for one address, not for a province signing in.
 */
export const nextIp = () => {
  ipSeq++;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

/** Signs in through the login call (`/api/login` or `/api/admin/login`) from a fresh address; the access token. */
export async function signInOverHttp(origin: string, path: '/api/login' | '/api/admin/login' | '/api/expert/login', username: string, password: string): Promise<string> {
  const data = await call<{ accessToken: string }>(`${origin}${path}`, { body: { username, password }, headers: { 'x-forwarded-for': nextIp() } });
  return data.accessToken;
}
