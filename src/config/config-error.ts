import { UserError } from '../contract/user-error.js';

/** A setting that cannot be used as given: says which and what to write instead, in English and Chinese. */
export class ConfigError extends UserError<'config'> {
  override name = 'ConfigError';
  constructor(message: string, zh: string) {
    super('config', message, zh);
  }
}
