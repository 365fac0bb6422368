import { z } from '@hono/zod-openapi';
import { createModelCatalog, LIST_CACHE_MS, LIST_TIMEOUT_MS, MAX_MODEL_CHARS } from '../llm/model-catalog.js';
import { Models } from '../contract/models.js';
import type { ServerDeps } from './deps.js';
import { ApiError } from './errors.js';
import { endpoint, newSubApp } from './openapi.js';

export const ModelChoice = z
  .object({
    model: z
      .string()
      .min(1)
      .max(MAX_MODEL_CHARS)
      .refine((m) => !/[\u0000-\u001f\u007f-\u009f]/.test(m), 'no control characters')
      .refine((m) => m.trim() === m, 'no spaces around the name')
      .describe(
        'A model name the provider knows, e.g. `deepseek-chat`. Need not be in the list: providers do not list every alias.',
      ),
  })
  .openapi('ModelChoice');
export type ModelChoice = z.infer<typeof ModelChoice>;

export function modelRoutes({ app, modelListTimeoutMs }: ServerDeps) {
  const api = newSubApp();
  const { llm } = app;
  const catalog = createModelCatalog(llm, { listTimeoutMs: modelListTimeoutMs });
  const models = (): Promise<Models> => catalog.list();

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/models',
      tag: 'server',
      summary: 'The models to choose from',
      description: `Asks the provider (at most every ${LIST_CACHE_MS / 1000} s, waiting at most ${LIST_TIMEOUT_MS / 1000} s); when it cannot say, only the configured model is offered. Never includes the API key.`,
      responses: { 200: { description: 'The models.', schema: Models } },
    },
    async (c) => c.json(await models()),
  );

  endpoint(
    api,
    {
      method: 'put',
      path: '/api/model',
      tag: 'server',
      summary: 'Switch the model',
      description:
        'New requests to the model use this one, until the server stops (the configuration is not changed). GET /api/status shows it.',
      body: ModelChoice,
      responses: { 200: { description: 'The models, with the new `current`.', schema: Models } },
      errors: [400, 409, 413],
      errorText: { 409: 'Offline: there is no model to switch.' },
    },
    async (c, { body }) => {
      if (llm.mode === 'offline') {
        throw new ApiError(
          409,
          'offline',
          'Zhixing is in offline mode, following rules: there is no model to switch. Configure one (ZHIXING_BASE_URL, ZHIXING_API_KEY, ZHIXING_MODEL) and restart.',
        );
      }
      if (!llm.setModel)
        throw new ApiError(409, 'fixed_model', `The model "${llm.model}" cannot be switched in this server.`);
      llm.setModel(body.model);
      return c.json(await models());
    },
  );
  return api;
}
