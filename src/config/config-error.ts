/** A setting that cannot be used as given: says which and what to write instead, in English and Chinese. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    /** The same sentence in Chinese, for a user who writes Chinese. */
    readonly zh?: string,
  ) {
    super(message);
  }
}
