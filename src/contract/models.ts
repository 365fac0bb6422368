/** The models a host may choose from, and the one new turns use. */
import { z } from 'zod';

export const Models = z
  .object({
    mode: z.enum(['offline', 'llm']),
    provider: z.string().describe('The provider preset, `custom`, or `offline`.'),
    current: z.string().describe('The model new turns use.'),
    models: z.array(z.string()).describe('The models to choose from, `current` always among them.'),
    source: z
      .enum(['provider', 'config', 'offline'])
      .describe(
        "`provider`: the provider's own list (GET {baseUrl}/models); `config`: it could not be asked, so only the configured model; `offline`: the rule-based planner.",
      ),
  })
  .meta({ id: 'Models' });
export type Models = z.infer<typeof Models>;
