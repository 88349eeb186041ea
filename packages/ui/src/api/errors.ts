import type { Context } from 'hono';

/** A refused API call: the status and one line the page shows. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 413 | 500,
    message: string,
    /** More fields of the answer beside `error` (e.g. `refusal` of a session a host is writing). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Request bodies larger than this are refused (the largest legitimate one is a notes entry). */
const BODY_MAX_BYTES = 1 << 20;

/** The JSON object of a POST body; throws {@link ApiError} 400/413 for anything else. */
export async function readJson(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (Buffer.byteLength(text) > BODY_MAX_BYTES) throw new ApiError(413, `request body over ${BODY_MAX_BYTES} bytes`);
  let v: unknown;
  try {
    v = JSON.parse(text || '{}');
  } catch (e) {
    throw new ApiError(400, `request body is not JSON: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ApiError(400, 'request body must be a JSON object');
  return v as Record<string, unknown>;
}
