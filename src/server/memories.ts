import { z } from '@hono/zod-openapi';
import { MemoryError } from '../memory/service.js';
import type { MemoryService } from '../memory/types.js';
import { Memory, MEMORY_KINDS } from '../contract/memory.js';
import type { ServerDeps } from './deps.js';
import { ApiError } from './errors.js';
import { endpoint, newSubApp } from './openapi.js';

export const MemoryList = z
  .object({
    memories: z.array(Memory).describe('Newest first; with `q`, the best matches first.'),
    total: z.number().int().describe('How many there are in all (with `q`: at least this many matched).'),
  })
  .openapi('MemoryList');

const ListQuery = z.object({
  session: z.string().min(1).max(200).optional().describe("Only this session's memories; every session's without it."),
  q: z
    .string()
    .max(1000)
    .optional()
    .describe('Keywords or a question: Chinese of any length, two characters included.'),
  limit: z.coerce.number().int().min(1).max(500).optional().describe('At most this many (50 when absent).'),
  offset: z.coerce.number().int().min(0).optional(),
});

// Checked loosely here: the memory service refuses what it cannot keep with a sentence a person can act on.
export const MemoryPatch = z
  .object({
    content: z.string().optional(),
    kind: z
      .string()
      .optional()
      .describe(`One of ${MEMORY_KINDS.join(', ')}.`),
    tags: z.array(z.string()).optional(),
  })
  .openapi('MemoryPatch');

const MemoryId = z.object({ id: z.string().min(1).max(200) });

const notFound = (id: string) =>
  new ApiError(404, 'not_found', `There is no memory "${id}"; it may have been deleted.`);

export function memoryRoutes({ app }: ServerDeps) {
  const api = newSubApp();
  const memory = app.memory;
  endpoint(
    api,
    {
      method: 'get',
      path: '/api/memories',
      tag: 'memories',
      summary: 'List or search memories',
      description:
        'What the assistant remembers across turns and restarts. Without `q`, newest first; with it, ranked by relevance.',
      query: ListQuery,
      responses: { 200: { description: 'The memories.', schema: MemoryList } },
      errors: [400],
    },
    (c, { query }) =>
      c.json(memory.list({ sessionId: query.session, query: query.q, limit: query.limit, offset: query.offset })),
  );

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/memories/{id}',
      tag: 'memories',
      summary: 'One memory',
      params: MemoryId,
      responses: { 200: { description: 'The memory.', schema: Memory } },
      errors: [404],
    },
    (c, { params }) => {
      const found = memory.get(params.id);
      if (!found) throw notFound(params.id);
      return c.json(found);
    },
  );

  patchRoute(api, memory);

  endpoint(
    api,
    {
      method: 'delete',
      path: '/api/memories/{id}',
      tag: 'memories',
      summary: 'Delete a memory',
      params: MemoryId,
      responses: { 204: { description: 'Deleted.' } },
      errors: [404],
    },
    (c, { params }) => {
      if (!memory.remove(params.id)) throw notFound(params.id);
      return c.body(null, 204);
    },
  );
  return api;
}

function patchRoute(api: ReturnType<typeof newSubApp>, memory: MemoryService) {
  endpoint(
    api,
    {
      method: 'patch',
      path: '/api/memories/{id}',
      tag: 'memories',
      summary: 'Edit a memory',
      description: 'Fields left out keep their value.',
      params: MemoryId,
      body: MemoryPatch,
      responses: { 200: { description: 'The memory now.', schema: Memory } },
      errors: [400, 404, 413],
      errorText: {
        400: 'The memory cannot be kept that way (empty, too long, an unknown kind, too many tags): the message says which.',
      },
    },
    async (c, { params, body }) => {
      try {
        const updated = await memory.update(params.id, body as Parameters<MemoryService['update']>[1]);
        if (!updated) throw notFound(params.id);
        return c.json(updated);
      } catch (err) {
        if (err instanceof MemoryError) throw new ApiError(400, 'bad_request', err.message);
        throw err;
      }
    },
  );
}
