import { z } from '@hono/zod-openapi';
import type { ServerDeps } from './deps.js';
import { endpoint, newSubApp } from './openapi.js';

/** Where the core keeps the user's name (the offline planner learns it from 「我叫…」, the prompt uses it). */
const NAME_KEY = 'user.name';
const MAX_NAME_CHARS = 100;

export const Preferences = z
  .object({
    name: z.string().max(MAX_NAME_CHARS).nullable().describe("The user's name, told to the model in every turn; null when unknown."),
  })
  .openapi('Preferences');
export type Preferences = z.infer<typeof Preferences>;

export function preferenceRoutes({ app }: ServerDeps) {
  const api = newSubApp();
  const prefs = app.store.prefs;
  const read = (): Preferences => ({ name: prefs.get(NAME_KEY) || null });
  const description = 'What Zhixing keeps about the user across sessions. Free-form standing instructions arrive in a later version.';

  endpoint(api, { method: 'get', path: '/api/preferences', tag: 'preferences', summary: "The user's preferences", description, responses: { 200: { description: 'The preferences.', schema: Preferences } } }, (c) =>
    c.json(read()),
  );

  endpoint(
    api,
    {
      method: 'put',
      path: '/api/preferences',
      tag: 'preferences',
      summary: "Replace the user's preferences",
      description,
      body: Preferences,
      responses: { 200: { description: 'The preferences now.', schema: Preferences } },
      errors: [400, 413],
    },
    (c, { body }) => {
      // The store has no delete: an empty name is what "unknown" reads as.
      prefs.set(NAME_KEY, body.name?.trim() ?? '');
      return c.json(read());
    },
  );
  return api;
}
