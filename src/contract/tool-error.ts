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

  constructor(message: string, options: { outside?: boolean } = {}) {
    super(message);
    this.outside = options.outside === true;
  }
}
