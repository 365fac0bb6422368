/** What GET /api/status tells a host: mode, model, tools, MCP servers, running sessions, the sandbox, memory and search. */
import { z } from 'zod';
import { EmbeddingStatus } from './memory.js';
import { SEARCH_PROVIDERS } from './search-provider.js';

export const Status = z
  .object({
    version: z.string(),
    mode: z.enum(['offline', 'llm']).describe('`offline`: the rule-based planner; `llm`: a configured model.'),
    provider: z.string().describe('The provider preset, `custom`, or `offline`.'),
    model: z.string(),
    tools: z.array(z.string()).describe('The names of the tools the assistant can use.'),
    mcp: z
      .array(
        z.object({
          name: z.string(),
          state: z.enum(['connecting', 'connected', 'failed', 'disabled']),
          tools: z.number().int().describe('How many tools it offers now.'),
          error: z.string().optional().describe('Why it failed, for `failed`.'),
        }),
      )
      .describe('The configured MCP servers with their state; GET /api/mcp has the details.'),
    sessions: z.object({
      running: z.array(z.string()).describe('Ids of the sessions running a turn now.'),
      limit: z.number().int().describe('How many sessions may run at once; past it, a new turn is refused with 429.'),
    }),
    sandbox: z
      .object({
        kind: z
          .enum(['bwrap', 'sandbox-exec', 'none'])
          .describe('`bwrap`: bubblewrap (Linux); `sandbox-exec`: Seatbelt (macOS); `none`: no sandbox program.'),
        ok: z
          .boolean()
          .describe(
            'False when no sandbox works here: shell commands then run uncontained, and each one asks first, whatever the rules.',
          ),
        reason: z.string().optional().describe('Why no sandbox works, e.g. "bubblewrap (bwrap) is not installed".'),
        network: z
          .enum(['off', 'user-mode', 'host'])
          .describe(
            "The network commands get. `off`: none; `user-mode`: the internet through pasta, no local address (loopback, private ranges, this machine) reachable; `host`: the machine's own network, local addresses included (macOS, or no sandbox).",
          ),
        networkReason: z
          .string()
          .optional()
          .describe('Why the network is off although the settings turn it on (e.g. pasta is not installed).'),
      })
      .describe('What shell commands run in.'),
    memory: z
      .object({
        count: z.number().int().describe('How many memories are kept, over every session.'),
        embeddings: EmbeddingStatus,
      })
      .describe('Long-term memory; GET /api/memories lists it.'),
    search: z
      .object({
        provider: z.enum(SEARCH_PROVIDERS),
        url: z.string().describe('The endpoint asked, without credentials or query.'),
      })
      .nullable()
      .describe('The service web_search asks (never its key); null when none is set up.'),
  })
  .meta({ id: 'Status' });
export type Status = z.infer<typeof Status>;
