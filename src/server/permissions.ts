import { z } from '@hono/zod-openapi';
import type { ServerDeps } from './deps.js';
import { ApiError } from './errors.js';
import { endpoint, newSubApp } from './openapi.js';

export const PermissionAnswer = z
  .object({
    decision: z.enum(['once', 'always', 'deny']).describe('`once`: allow this call; `always`: allow and remember; `deny`: refuse.'),
  })
  .openapi('PermissionAnswer');
export type PermissionAnswer = z.infer<typeof PermissionAnswer>;

export const PermissionAnswered = z.object({ ok: z.literal(true) }).openapi('PermissionAnswered');
export type PermissionAnswered = z.infer<typeof PermissionAnswered>;

const AskId = z.object({ id: z.string().min(1).max(200).describe('The `id` of a `permission.asked` event.') });

export function permissionRoutes({ app }: ServerDeps) {
  const api = newSubApp();
  endpoint(
    api,
    {
      method: 'post',
      path: '/api/permissions/{id}',
      tag: 'permissions',
      summary: 'Answer a permission ask',
      description: 'Answers the `permission.asked` event with this id (see GET /api/events). 404 when the ask is unknown or already answered.',
      params: AskId,
      body: PermissionAnswer,
      responses: { 200: { description: 'Answered; the tool call goes on or is refused.', schema: PermissionAnswered } },
      errors: [400, 404],
    },
    async (c, { params, body }) => {
      if (!app.permission.reply(params.id, body.decision)) {
        throw new ApiError(404, 'not_found', `There is no open permission ask "${params.id}"; it may have been answered or its turn stopped.`);
      }
      return c.json({ ok: true } satisfies PermissionAnswered);
    },
  );
  return api;
}
