/** Undoing a turn's changes to the workspace: which turns can be undone, and what undoing one did. */
import { z } from 'zod';

/** What undoing a turn did: the summary POST …/undo and `zhixing undo` give. */
export const UndoSummary = z.object({
  turnId: z.string().describe('The turn that was undone.'),
  restored: z
    .array(z.string())
    .describe('Files the turn changed, back as they were (paths relative to the workspace).'),
  putBack: z.array(z.string()).describe('Files the turn deleted, put back.'),
  removed: z.array(z.string()).describe('Files and folders the turn created, removed.'),
  conflicts: z.array(z.string()).describe('Changed since the turn: kept as they are.'),
  notCovered: z
    .array(z.string())
    .describe('Not in the snapshot (over the size cap, special files, too many files): not restored.'),
  failed: z
    .array(z.object({ path: z.string(), error: z.string() }))
    .describe('Could not be restored; everything else was.'),
  message: z.string().describe("One sentence in the user's language saying what was restored."),
});
export type UndoSummary = z.infer<typeof UndoSummary>;

export const UndoResult = UndoSummary.extend({ session: z.string() }).meta({ id: 'UndoResult' });
export type UndoResult = z.infer<typeof UndoResult>;

export const UndoState = z
  .enum(['undoable', 'undone', 'expired', 'running'])
  .describe('`expired`: its snapshot was removed to keep within the limits (undo in config.json).');
export type UndoState = z.infer<typeof UndoState>;

/** A turn that changed files, and whether it can still be undone. */
export const UndoTurn = z.object({ turnId: z.string(), state: UndoState }).meta({ id: 'UndoTurn' });
export type UndoTurn = z.infer<typeof UndoTurn>;
