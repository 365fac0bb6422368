import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { CONFIG_FILE, ENV_FILE } from '../config/paths.js';
import { createBoundedAnalyzer, partsForRules } from '../shell/analyze-bounded.js';
import type { AnalyzeOptions, CommandAnalysis } from '../shell/analyze.js';
import { commandPath } from '../shell/command-path.js';
import { shellEnv } from '../shell/env.js';
import { runCommand } from '../shell/run.js';
import { findProgram, launchFor, type SandboxInfo } from '../shell/sandbox.js';
import {
  catastropheText,
  cutNote,
  noSandboxReason,
  outputBody,
  refusedText,
  sandboxSentence,
  shownCommand,
  startFailedText,
  statusLine,
  stoppedText,
} from './shell-text.js';
import { say } from '../i18n.js';
import { defineTool, type Tool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

const DEFAULT_TIMEOUT_MS = 120_000;
/** The longest a model may ask a command to run: ten minutes. */
const MAX_TIMEOUT_MS = 600_000;
/** The registry's own clock runs a little longer, so the command's timeout, which kills and reports, comes first. */
const TOOL_TIMEOUT_MARGIN_MS = 30_000;
const MAX_COMMAND_CHARS = 20_000;

export const ShellParams = z.object({
  command: z
    .string()
    .min(1)
    .max(MAX_COMMAND_CHARS)
    .refine((c) => c.trim() !== '', 'the command is empty')
    .describe(
      'The command line, run with bash -c in the workspace, e.g. "ls -la" or "python3 make_chart.py && ls out".',
    ),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      `Milliseconds before the command is ended, default ${DEFAULT_TIMEOUT_MS} (2 minutes), at most ${MAX_TIMEOUT_MS} (10 minutes). Raise it for long builds or downloads.`,
    ),
});
export type ShellParams = z.infer<typeof ShellParams>;

export type Analyze = (command: string, options: AnalyzeOptions) => Promise<CommandAnalysis>;

export interface ShellToolDeps {
  /** `$ZHIXING_HOME`: hidden from commands, and no command may write the files in it. */
  home: string;
  dbPath: string;
  /** Whether commands may use the network. */
  network: boolean;
  /** The environment the assistant was started with; commands get it without its secrets. */
  env: Record<string, string | undefined>;
  /** What containment works here (found once, on first use). */
  sandbox(): Promise<SandboxInfo>;
  /** Reads a command line into the parts the rules decide on; the real shell parser by default. */
  analyze?: Analyze;
  /** Programs the rules deny outright, made unavailable inside the sandbox whatever the spelling; read at each command, so edited rules apply at once. */
  maskPrograms?: () => string[];
  /** Folders whose scripts count as known code (the shipped and the user's own skills): see AnalyzeOptions.knownScripts. */
  knownScripts?: string[];
  /** Folders commands must read wherever they lie (the installation, a project's skills): see ContainOptions.shown. */
  shown?: string[];
  /** The user's home folder: an empty one in its place inside the sandbox; the system's idea of it by default. */
  userHome?: string;
  /** Folders nothing shown to commands may hold: the folder Zhixing was started in, with its ./.env. */
  private?: string[];
  platform?: NodeJS.Platform;
}

/** A path as given and, when it exists through a link (macOS's /tmp), as it really is: commands see the real one. */
function withRealPath(p: string): string[] {
  try {
    const real = realpathSync(p);
    return real === p ? [p] : [p, real];
  } catch {
    return [p];
  }
}

/** The agent's own files: what analysis refuses to let a command write, and what the sandbox hides. */
export function protectedFiles(home: string, dbPath: string): string[] {
  return [
    path.join(home, CONFIG_FILE),
    path.join(home, ENV_FILE),
    dbPath,
    `${dbPath}-wal`,
    `${dbPath}-shm`,
    `${dbPath}-journal`,
  ];
}

export function createShellTool(deps: ShellToolDeps): Tool {
  // Read on a worker thread with a deadline: a line built to be slow to parse must not hold the
  // thread that serves every session. The parser is loaded when the first command is read.
  const analyze = deps.analyze ?? createBoundedAnalyzer();
  const platform = deps.platform ?? process.platform;
  return defineTool({
    name: 'shell',
    annotations: { destructive: true, openWorld: true },
    changesWorkspace: true,
    timeoutMs: MAX_TIMEOUT_MS + TOOL_TIMEOUT_MARGIN_MS,
    // A command may be up to 20,000 characters; JSON escapes can double that.
    maxInputChars: MAX_COMMAND_CHARS * 2 + 1_000,
    description:
      'Run a shell command line (bash) in the workspace, which is its working folder. ' +
      `${sandboxSentence(platform, deps.network)} ` +
      'There is no interactive input: standard input is empty, so use non-interactive flags (-y, --yes, --no-pager). ' +
      'Returns the exit code, then standard output and error together. Output past about 28 KB is cut in the middle; ' +
      'redirect long output to a file and read parts of it. A non-zero exit code comes back as a normal result with the output: read it before trying again. ' +
      `Commands end after ${DEFAULT_TIMEOUT_MS / 1000} s unless timeout_ms says otherwise (at most ${MAX_TIMEOUT_MS / 1000} s); ` +
      'background processes end with the command.',
    parameters: ShellParams,
    async execute(args, ctx) {
      const { lang } = ctx;
      const info = await deps.sandbox();
      const userHome = deps.userHome ?? os.homedir();
      // Under bubblewrap the user's home is an empty folder of the command's own; elsewhere the workspace stands in for it.
      const env = shellEnv(deps.env, {
        workspace: ctx.workspace,
        tmpdir: '/tmp',
        home: info.ok && info.kind === 'bwrap' ? userHome : ctx.workspace,
      });
      const files = protectedFiles(deps.home, deps.dbPath);
      // Under bubblewrap the command's home starts empty: the user's own ~/.gitconfig is not what its git reads.
      const emptyHome = info.ok && info.kind === 'bwrap';
      // One PATH for the reader, the sandbox and bash: none of its folders is one the command can write or make.
      env.PATH = commandPath({
        searchPath: env.PATH!,
        writable: [ctx.workspace, '/tmp', os.tmpdir()],
        ...(emptyHome ? { emptyHome: { path: userHome, hidden: [deps.home, ...(deps.private ?? [])] } } : {}),
      });
      // A parser that fails is a line that could not be read: it asks, as any unreadable line does.
      const analysis: CommandAnalysis = await analyze(args.command, {
        cwd: ctx.workspace,
        path: env.PATH!,
        protectedPaths: [...files, deps.home].flatMap(withRealPath),
        writable: [ctx.workspace],
        knownScripts: deps.knownScripts ?? [],
        ...gitHomeFor(env, emptyHome),
      }).catch((err: unknown) => ({
        ok: false,
        reason: `the command line could not be read (${err instanceof Error ? err.message : String(err)})`,
      }));
      // Refused in every mode, before anyone is asked: no answer makes these right.
      if (analysis.ok && analysis.catastrophe)
        throw new ToolError(catastropheText(lang, args.command, analysis.catastrophe));
      const decision = await ctx.ask({
        action: 'shell.run',
        target: args.command,
        insideSandbox: true,
        parts: partsForRules(args.command, analysis),
        ...(info.ok ? {} : { mustAsk: noSandboxReason(lang, info) }),
        // A line not read at all (it does not parse, is too long, or took too long to read) was not even
        // checked for what is refused in every mode: only a person may let it run, never --yes.
        ...(analysis.ok ? {} : { personOnly: true }),
        // On the network a command can send anything anywhere; off it, nothing leaves the machine.
        ...(deps.network
          ? { sendsTo: { kind: 'anywhere' as const, what: say(lang, 'shell 命令', 'a shell command') } }
          : {}),
      });
      // Person-only because what it runs cannot be read (not because of outside text in the turn, which the turn says itself).
      const unread = !analysis.ok || analysis.parts.some((p) => p.opaque !== undefined || p.unread !== undefined);
      if (decision !== 'allow')
        throw new ToolError(refusedText(lang, args.command, ctx.refusal?.(), unread), { kind: 'refused' });
      // Asking may have taken a while: a stop in the meantime means it never starts.
      if (ctx.signal.aborted) throw new ToolError(refusedText(lang, args.command, 'cancelled'), { kind: 'stopped' });

      const timeoutMs = Math.min(args.timeout_ms ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
      const shell = findProgram('bash', env.PATH!, ['/bin', '/usr/bin']) ?? '/bin/bash';
      const launch = await launchFor(info, {
        workspace: ctx.workspace,
        home: deps.home,
        protectedFiles: files,
        userHome,
        network: deps.network,
        maskPrograms: deps.maskPrograms?.() ?? [],
        searchPath: env.PATH!,
        shell,
        shown: deps.shown ?? [],
        private: deps.private ?? [],
      });
      let result;
      try {
        result = await runCommand({
          command: args.command,
          cwd: ctx.workspace,
          env: { ...env, TMPDIR: launch.tmpdir },
          shell,
          prefix: launch.prefix,
          pipes: launch.pipes,
          attach: launch.attach,
          timeoutMs,
          signal: ctx.signal,
          onProgress: (line) => ctx.progress(line),
          cutNote: (bytes) => cutNote(lang, bytes),
        });
      } finally {
        await launch.cleanup();
      }
      if (result.startError) throw new ToolError(startFailedText(lang, result.startError));
      if (result.stopped) throw new ToolError(stoppedText(lang, result, timeoutMs, MAX_TIMEOUT_MS));
      return {
        output: `${statusLine(lang, result, info)}\n${outputBody(lang, result)}`,
        title: shownCommand(args.command),
        metadata: {
          exitCode: result.exitCode,
          ms: Math.round(result.ms),
          cut: result.cutBytes > 0,
          sandbox: info.ok ? info.kind : 'none',
        },
      };
    },
  });
}

/**
 * Where the command's git finds per-user settings, for the analyser to check: none when its home is
 * the sandbox's fresh empty one (a line that writes there first is caught as a write on the line),
 * else the home and XDG folder it is given (the workspace, when it stands in for the home).
 */
function gitHomeFor(env: NodeJS.ProcessEnv, emptyHome: boolean): { home?: string; xdgConfigHome?: string } {
  if (emptyHome) return {};
  return {
    ...(env.HOME ? { home: env.HOME } : {}),
    ...(env.XDG_CONFIG_HOME ? { xdgConfigHome: env.XDG_CONFIG_HOME } : {}),
  };
}
