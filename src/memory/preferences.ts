import { UserError } from '../contract/user-error.js';
import type { PrefsRepo } from '../store/prefs-repo.js';
import type { PreferencesService } from './types.js';

const KEY = 'instructions';
/** Each instruction is paid for on every model step: a few short lines, not a document. */
export const MAX_INSTRUCTIONS = 30;
export const MAX_INSTRUCTION_CHARS = 500;

/** Instructions that cannot be kept as given: said in plain words. */
export class PreferencesError extends UserError<'invalid_preferences'> {
  override name = 'PreferencesError';
  constructor(message: string, zh: string) {
    super('invalid_preferences', message, zh);
  }
}

/** The user's standing instructions, kept as one JSON list in the preferences table. */
export function createPreferences(prefs: PrefsRepo): PreferencesService {
  return {
    list() {
      const raw = prefs.get(KEY);
      if (!raw) return [];
      try {
        const value: unknown = JSON.parse(raw);
        return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
      } catch {
        return [];
      }
    },
    set(instructions) {
      const kept: string[] = [];
      for (const line of instructions) {
        // One instruction is one line: a line break inside one could start a line of the system prompt.
        const text = line
          .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
          .replace(/\s+/g, ' ')
          .trim();
        if (!text || kept.includes(text)) continue;
        if ([...text].length > MAX_INSTRUCTION_CHARS)
          throw new PreferencesError(
            `An instruction is longer than ${MAX_INSTRUCTION_CHARS} characters.`,
            `一条指示超过了 ${MAX_INSTRUCTION_CHARS} 个字符。`,
          );
        kept.push(text);
      }
      if (kept.length > MAX_INSTRUCTIONS)
        throw new PreferencesError(`At most ${MAX_INSTRUCTIONS} instructions.`, `最多 ${MAX_INSTRUCTIONS} 条指示。`);
      prefs.set(KEY, JSON.stringify(kept));
      return kept;
    },
  };
}
