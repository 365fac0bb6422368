import { z } from '@hono/zod-openapi';
import { MAX_INSTRUCTION_CHARS, MAX_INSTRUCTIONS, PreferencesError } from '../memory/preferences.js';
import type { ServerDeps } from './deps.js';
import { ApiError } from './errors.js';
import { endpoint, newSubApp } from './openapi.js';

/**
 * Where versions before long-term memory kept the user's name. The name is now an ordinary memory;
 * one stored the old way is still shown and still told to the model, and can be cleared with `name: null`.
 */
export const LEGACY_NAME_KEY = 'user.name';
const MAX_NAME_CHARS = 100;

export const Preferences = z
  .object({
    instructions: z
      .array(z.string())
      .describe(
        `Standing instructions ("用中文回复", "keep answers short"), one per line, in every system prompt. At most ${MAX_INSTRUCTIONS} of ${MAX_INSTRUCTION_CHARS} characters.`,
      ),
    name: z
      .string()
      .optional()
      .describe("Only when an earlier version stored the user's name here; names are memories now."),
  })
  .openapi('Preferences');
export type Preferences = z.infer<typeof Preferences>;

// Loose on purpose: the preferences service says what is wrong in a sentence (too many, too long).
export const NewPreferences = z
  .object({
    instructions: z.array(z.string()).max(1000).describe('The whole new list: empty lines and duplicates are dropped.'),
    name: z
      .string()
      .max(MAX_NAME_CHARS)
      .nullable()
      .optional()
      .describe('Deprecated: `null` clears a name stored by an earlier version; a string replaces it.'),
  })
  .openapi('NewPreferences');

export function preferenceRoutes({ app }: ServerDeps) {
  const api = newSubApp();
  const store = app.store.prefs;
  const read = (): Preferences => {
    const name = store.get(LEGACY_NAME_KEY);
    return { instructions: app.preferences.list(), ...(name ? { name } : {}) };
  };
  const description =
    "The user's standing instructions, kept across sessions and put into every system prompt (with a model; offline mode has no prompt).";

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/preferences',
      tag: 'preferences',
      summary: "The user's standing instructions",
      description,
      responses: { 200: { description: 'The preferences.', schema: Preferences } },
    },
    (c) => c.json(read()),
  );

  endpoint(
    api,
    {
      method: 'put',
      path: '/api/preferences',
      tag: 'preferences',
      summary: "Replace the user's standing instructions",
      description,
      body: NewPreferences,
      responses: {
        200: {
          description: 'The preferences now, as stored (trimmed, empty lines and duplicates dropped).',
          schema: Preferences,
        },
      },
      errors: [400, 413],
      errorText: {
        400: 'Too many instructions, one too long, or not a list of strings: the message says which; nothing was saved.',
      },
    },
    (c, { body }) => {
      try {
        app.preferences.set(body.instructions);
      } catch (err) {
        if (err instanceof PreferencesError) throw new ApiError(400, 'bad_request', err.message);
        throw err;
      }
      // The store has no delete: an empty name is what "unknown" reads as.
      if (body.name !== undefined) store.set(LEGACY_NAME_KEY, body.name?.trim() ?? '');
      return c.json(read());
    },
  );
  return api;
}
