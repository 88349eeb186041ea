/** Largest payload the runner parses: 8 MiB (bytes). Anything larger is drained and ignored. */
export const STDIN_MAX_BYTES = 8 * 1024 * 1024;

/** Result of {@link readStdinCapped}. */
export interface StdinResult {
  /** The bytes read, up to `maxBytes`, decoded as UTF-8. */
  text: string;
  /** Total bytes seen (including those past the cap that were discarded). */
  bytes: number;
  /** More than `maxBytes` arrived. */
  overflow: boolean;
  /** The time cap hit before end of input. */
  timedOut: boolean;
}

/**
 * Read a stream to its end, keeping at most `maxBytes` bytes and discarding the rest
 * (still reading, so a writer never blocks on a full pipe), for at most `timeoutMs`
 * milliseconds. A TTY stdin (nobody piping) resolves empty at once. Never rejects.
 */
export function readStdinCapped(
  stream: NodeJS.ReadableStream & { isTTY?: boolean; destroy?: () => void },
  opts: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<StdinResult> {
  const maxBytes = opts.maxBytes ?? STDIN_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? 3000;
  if (stream.isTTY) return Promise.resolve({ text: '', bytes: 0, overflow: false, timedOut: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let bytes = 0;
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onEnd);
      if (timedOut) {
        // stop reading; the host sees EPIPE at worst, never a blocked write
        try {
          stream.destroy?.();
        } catch {
          // ignore
        }
      }
      resolve({ text: Buffer.concat(chunks).toString('utf8'), bytes, overflow: bytes > maxBytes, timedOut });
    };
    const onData = (chunk: Buffer | string) => {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += b.length;
      if (kept < maxBytes) {
        const take = Math.min(b.length, maxBytes - kept);
        chunks.push(take === b.length ? b : b.subarray(0, take));
        kept += take;
      }
    };
    const onEnd = () => finish(false);
    const timer = setTimeout(() => finish(true), timeoutMs);
    timer.unref?.();
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onEnd);
    stream.resume();
  });
}
