/**
 * A framework message the adapter cannot read: an unknown role or part type, a missing id.
 * `field` is the path to the offending value, e.g. `messages[3].content[1].type`; the
 * message names the adapter and the field. Nothing is dropped silently: the whole call fails.
 */
export class AdapterInputError extends Error {
  override readonly name = 'AdapterInputError';
  constructor(
    /** The adapter whose message shape was violated (`ai-sdk`, `openai-agents`, `langchain`, `pi`). */
    readonly adapter: string,
    /** Path to the offending value, e.g. `messages[3].content[1].type`. */
    readonly field: string,
    detail: string,
  ) {
    super(`${adapter}: ${field}: ${detail}`);
  }
}

/**
 * An optional peer dependency an adapter needs at run time is not installed. The message
 * names the package and the install command.
 */
export class MissingPeerError extends Error {
  override readonly name = 'MissingPeerError';
  constructor(
    /** The npm package that could not be imported. */
    readonly packageName: string,
    /** The adapter subpath that needs it, e.g. `@hive-mind/adapters/langchain`. */
    readonly subpath: string,
    cause?: unknown,
  ) {
    super(`${subpath} needs the optional peer dependency "${packageName}", which is not installed: npm install ${packageName}`, { cause });
  }
}

/** Import an optional peer, turning "module not found" for it into a {@link MissingPeerError}. */
export async function importPeer<T>(packageName: string, subpath: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((err as Error).message).includes(packageName)) {
      throw new MissingPeerError(packageName, subpath, err);
    }
    throw err;
  }
}
