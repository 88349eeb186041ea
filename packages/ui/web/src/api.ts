/** Calls to the server's JSON API, with the per-run token the server put in the page. */

const meta = document.querySelector<HTMLMetaElement>('meta[name="hive-mind-token"]');
const pageToken = meta?.content ?? '';

/** An API answer that was not 2xx: its status and the server's one-line reason. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** GET (no body) or POST (JSON body) `path`; resolves to the parsed JSON, rejects with {@link ApiFailure}. */
export async function api<T = any>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-hive-mind-token': pageToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { error: text.trim() };
  }
  if (!res.ok) throw new ApiFailure(res.status, json?.error ?? `${res.status} ${res.statusText}`, json);
  return json as T;
}

/** `?a=1&b=2` from the defined, non-empty values of `p`. */
export function qs(p: Record<string, string | number | boolean | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) if (v !== undefined && v !== '' && v !== false) u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}
