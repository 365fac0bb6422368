/**
 * An error a person reads: a stable `code` that hosts map to an exit status or an HTTP status, and one
 * sentence in English (`message`) and in Chinese (`zh`). Each module's own error (a setting that cannot
 * be used, a session that is busy, a provider that refused the key) is one of these; `errorText` in
 * i18n.ts is the one place that picks the language to show.
 */
export class UserError<Code extends string = string> extends Error {
  override name = 'UserError';
  constructor(
    readonly code: Code,
    message: string,
    /** The same sentence in Chinese. */
    readonly zh: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
