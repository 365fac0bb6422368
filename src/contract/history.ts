/** A session's history as the HTTP API gives it and the web app replays it. */
import { z } from 'zod';
import { Message } from './message.js';
import { UndoTurn } from './undo.js';

export const History = z
  .object({
    messages: z.array(Message).describe('Oldest first.'),
    changingTools: z
      .array(z.string())
      .describe('The tools whose calls may change the workspace (the ones undo takes back).'),
    undo: z
      .array(UndoTurn)
      .describe(
        'The turns that changed files, newest first, and whether POST …/undo can still take them back (it takes the newest `undoable` one).',
      ),
    resumeAfter: z
      .number()
      .int()
      .describe(
        'Follow the session from here (GET …/events?after=) to see what comes after this history, the step in flight included.',
      ),
  })
  .meta({ id: 'History' });
export type History = z.infer<typeof History>;
