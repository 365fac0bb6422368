import { z } from 'zod';

/**
 * What kind of failure a tool call met, for code that acts on it (the offline planner creates a
 * file that was `not_found` instead of reading the error's words). The message stays the account.
 */
export const ToolErrorKind = z.enum([
  /** The arguments were not JSON, too long, or did not fit the tool's schema; or the request made no sense. */
  'invalid',
  /** No such tool. */
  'unknown_tool',
  /** What the call names (a file, a todo, a place) does not exist. */
  'not_found',
  /** Refused: by the permission rules, by the user, or by a policy. */
  'refused',
  'timeout',
  /** Stopped by the user, or not run because the turn was stopped. */
  'stopped',
  /** Not run: the same call was already made twice in the turn. */
  'repeated',
  /** The program stopped while the call ran. */
  'interrupted',
  /** Anything else: the tool tried and it did not work. */
  'failed',
]);
export type ToolErrorKind = z.infer<typeof ToolErrorKind>;

/**
 * An error meant for the model (and the user) to read: "there is no item 3", "file not found".
 * The registry turns it into a failed tool result; it never crashes a turn.
 */
export class ToolError extends Error {
  override name = 'ToolError';
  /**
   * The message quotes words from outside (a server's status line or content type, an address a server
   * redirected to, a page's error): for the turn's trust record the failure brought outside text in.
   */
  readonly outside: boolean;
  /** What kind of failure it is; `failed` unless the thrower says. */
  readonly kind: ToolErrorKind;

  constructor(message: string, options: { outside?: boolean; kind?: ToolErrorKind } = {}) {
    super(message);
    this.outside = options.outside === true;
    this.kind = options.kind ?? 'failed';
  }
}
