import { z } from 'zod';

/** Tokens a model call or a whole turn used, as the model reported them: stored with the turn and shown by the hosts. */
export const Usage = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() });
export type Usage = z.infer<typeof Usage>;
