/**
 * An error meant for the model (and the user) to read: "there is no item 3", "file not found".
 * The registry turns it into a failed tool result; it never crashes a turn.
 */
export class ToolError extends Error {
  override name = 'ToolError';
}
