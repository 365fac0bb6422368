/**
 * One turn's outcome as `zhixing --json` prints it and POST /api/sessions/{id}/chat answers without
 * an event stream: the reply, and every tool call in execution order.
 */
import { z } from 'zod';
import { ToolCard } from './tool-outcome.js';

export const ChatResult = z
  .object({
    session: z.string(),
    mode: z.enum(['offline', 'llm']),
    reply: z.string(),
    actions: z
      .array(
        z.object({
          tool: z.string(),
          input: z.unknown(),
          ok: z.boolean(),
          output: z.string(),
          ms: z.number(),
          permission: ToolCard.shape.permission,
        }),
      )
      .describe(
        'Every tool call of the turn in execution order; a refused or failed call has `ok: false` and the reason in `output`.',
      ),
    error: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .describe('Set when the model service failed; the reply says so in words.'),
  })
  .meta({ id: 'ChatResult' });
export type ChatResult = z.infer<typeof ChatResult>;
