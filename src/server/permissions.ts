import { z } from '@hono/zod-openapi';
import { defaultsOf, type RulesEditing } from '../permission/rule-edits.js';
import { PermissionRulesError } from '../permission/rules-check.js';
import { PermissionSettings, type PermissionRules } from '../contract/permission.js';
import type { ServerDeps } from './deps.js';
import { ApiError } from './errors.js';
import { endpoint, newSubApp } from './openapi.js';

export const PermissionAnswer = z
  .object({
    decision: z
      .enum(['once', 'always', 'deny'])
      .describe('`once`: allow this call; `always`: allow and remember; `deny`: refuse.'),
  })
  .openapi('PermissionAnswer');
export type PermissionAnswer = z.infer<typeof PermissionAnswer>;

export const PermissionAnswered = z.object({ ok: z.literal(true) }).openapi('PermissionAnswered');
export type PermissionAnswered = z.infer<typeof PermissionAnswered>;

// Read as any JSON object: the rules engine's check says which entry is wrong and why, in words a
// person can act on, where a schema error would say only "Invalid input".
export const NewPermissionRules = z
  .object({
    rules: z.record(z.string(), z.unknown()).describe('As `permissions` in config.json: see PermissionRules.'),
  })
  .openapi('NewPermissionRules');
export const ForgetAnswer = z.object({ tool: z.string().min(1), pattern: z.string() }).openapi('ForgetAnswer');

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
      description:
        'Answers the `permission.asked` event with this id (see GET /api/events). 404 when the ask is unknown or already answered.',
      params: AskId,
      body: PermissionAnswer,
      responses: { 200: { description: 'Answered; the tool call goes on or is refused.', schema: PermissionAnswered } },
      errors: [400, 404],
    },
    async (c, { params, body }) => {
      if (!app.permission.reply(params.id, body.decision)) {
        throw new ApiError(
          404,
          'not_found',
          `There is no open permission ask "${params.id}"; it may have been answered or its turn stopped.`,
        );
      }
      return c.json({ ok: true } satisfies PermissionAnswered);
    },
  );
  rulesRoutes(api, app.permission);
  return api;
}

function rulesRoutes(api: ReturnType<typeof newSubApp>, service: RulesEditing) {
  const settings = (s: RulesEditing): PermissionSettings => {
    const rules = s.rules();
    const effective = s.effective();
    return { rules, defaults: defaultsOf(effective, rules), effective, remembered: s.remembered() };
  };

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/permissions',
      tag: 'permissions',
      summary: 'The permission rules and remembered answers',
      description:
        'What each tool may do without asking: the user\'s rules, the defaults, the two combined, and the "always" answers kept across runs.',
      responses: { 200: { description: 'The permission settings.', schema: PermissionSettings } },
    },
    (c) => c.json(settings(service)),
  );

  endpoint(
    api,
    {
      method: 'put',
      path: '/api/permissions',
      tag: 'permissions',
      summary: "Replace the user's permission rules",
      description:
        'Checked, saved to config.json (`permissions`) and applied from the next request on. Rules that cannot be used are refused with 400 and nothing changes.',
      body: NewPermissionRules,
      responses: { 200: { description: 'The permission settings now.', schema: PermissionSettings } },
      errors: [400, 413],
      errorText: {
        400: 'The rules cannot be used (a bad pattern, an unknown decision): the message says which and why; nothing was saved.',
      },
    },
    (c, { body }) => {
      const s = service;
      try {
        s.setRules(body.rules as PermissionRules);
      } catch (err) {
        // The rules engine's refusal says which key and why; nothing was saved or applied.
        if (err instanceof PermissionRulesError) throw new ApiError(400, err.code, err.message);
        throw err;
      }
      return c.json(settings(s));
    },
  );

  endpoint(
    api,
    {
      method: 'delete',
      path: '/api/permissions/remembered',
      tag: 'permissions',
      summary: 'Forget a remembered answer',
      description: 'The next call of this tool on this target asks again (unless a rule decides it).',
      body: ForgetAnswer,
      responses: { 200: { description: 'Forgotten; the permission settings now.', schema: PermissionSettings } },
      errors: [400, 404],
      errorText: { 404: 'No answer is remembered for this tool and pattern.' },
    },
    (c, { body }) => {
      const s = service;
      if (!s.forget(body.tool, body.pattern)) {
        throw new ApiError(
          404,
          'not_found',
          `No answer is remembered for ${body.tool} on "${body.pattern}"; GET /api/permissions lists them.`,
        );
      }
      return c.json(settings(s));
    },
  );
}
