import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';

/** What the SDK passes a tool handler beside its arguments (abort signal, session id...). */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
import type { ServerContext } from './context.js';
import { errorResult, messageOf } from './limits.js';

/** An argument error found after schema validation (e.g. an id that does not exist); the message starts with the field name. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'FieldError';
  }
}

/** Who is calling, per MCP session (used as the `host` provenance of saved frames). */
export interface SessionInfo {
  /** The client's name from `initialize` (e.g. `claude-code`), or `mcp` before it is known. */
  host(): string;
  /** A stable id of this MCP session (HTTP session id, or one per stdio process). */
  readonly id: string;
  /**
   * The project directory of this session, for the workspace mind: the `workspace` option, else
   * the client's first `file://` root, else the server's working directory (unless it is the home
   * directory or `/`). Undefined when there is none or the option is `false`.
   */
  workspace(): Promise<string | undefined>;
  /**
   * The client's `file://` roots as directories (MCP roots/list, asked once per session and again
   * after a roots-changed notification), or undefined when the client declares no roots capability
   * or the listing fails.
   */
  roots(): Promise<string[] | undefined>;
}

/**
 * Wrap a tool handler so that nothing it throws escapes as a protocol error or a crash:
 * every failure becomes a tool result with `isError: true` and a one-line message
 * (`<tool>: <message>`), and the failure is logged on stderr.
 */
export function guarded<A>(name: string, ctx: ServerContext, fn: (args: A, extra: ToolExtra) => Promise<CallToolResult>): (args: A, extra: ToolExtra) => Promise<CallToolResult> {
  return async (args: A, extra: ToolExtra) => {
    try {
      return await fn(args, extra);
    } catch (err) {
      let msg = messageOf(err);
      // the mind's own argument errors name their field in prose; give it the usual `field: ` prefix
      const code = (err as { code?: unknown } | null)?.code;
      if (code === 'EMPTY_QUERY' && !msg.startsWith('query')) msg = `query: ${msg}`;
      if (!(err instanceof FieldError) && !isUserError(err)) ctx.log(`${name} failed: ${msg}`);
      return errorResult(`${name}: ${msg}`);
    }
  };
}

function isUserError(err: unknown): boolean {
  const code = (err as { exitCode?: unknown } | null)?.exitCode;
  return code === 2;
}
