import type { TargetPart } from '../tools/tool.js';

/** A command line read before it runs: every part it would run, or why it could not be read. */
export type CommandAnalysis =
  | {
      ok: true;
      parts: TargetPart[];
      /** Set when the line would do something refused in every mode (`rm -rf /`, `mkfs`, …), saying what. */
      catastrophe?: string;
    }
  | { ok: false; reason: string };

export interface AnalyzeOptions {
  /** The folder the command runs in: relative program paths are resolved from it. */
  cwd: string;
  /** PATH as the command will see it: bare program names are looked up in it for their real path. */
  path: string;
  /** Files and folders no command may write to (the agent's own config and database). */
  protectedPaths?: string[];
}

/** Reads a command line into the parts the permission rules decide on. */
export async function analyzeCommand(command: string, _options: AnalyzeOptions): Promise<CommandAnalysis> {
  // Replaced by a real shell parser; until then the whole line is one part whose effect cannot be read.
  return { ok: true, parts: [{ text: command.trim(), opaque: 'the command line is not parsed yet' }] };
}
