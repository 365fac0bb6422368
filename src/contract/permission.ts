/** The permission layer's words, as tools, the turn, the store and the hosts pass them: what a tool asks, how it was decided, and why a person refused. */
import { z } from 'zod';

/**
 * Where a request would send what it carries. `url`: a fetch or navigation, whose address the
 * model wrote (or a server redirected to: `redirectFrom`); `page`: clicking on the page at `url`, or
 * typing `typed` there; `reopen`: loading a page again from the one at `url` (the browser's reload, back, forward);
 * `anywhere`: a shell with the network on, an open-world MCP tool (`server`: the remote MCP server it goes to).
 * `fragmentSeen`: the page itself reads the address's #fragment (the browser), so it is sent too.
 */
export type Egress =
  | { kind: 'url'; url: string; redirectFrom?: string; fragmentSeen?: boolean }
  | { kind: 'page'; url: string; typed?: string }
  | { kind: 'reopen'; url: string }
  | { kind: 'anywhere'; what: string; server?: string };

/** What a tool may ask the permission layer. Code decides; the model only proposes. */
export interface PermissionRequest {
  /** e.g. `file.read`, `file.write`, `shell.run` */
  action: string;
  /** What the action touches: a resolved path, a command, a URL. */
  target: string;
  /** True when the target lies inside the session's sandbox. */
  insideSandbox: boolean;
  /**
   * For a command line: every sub-command it would run (chains, pipes, substitutions, wrappers'
   * payloads), each matched against the rules on its own. Absent: `target` is matched whole.
   */
  parts?: TargetPart[];
  /**
   * Other names of `target` the rules match as well: for the file tools, the path relative to the
   * workspace with `/` (`notes/a.txt`), since `target` is absolute. A deny matching any of them wins.
   */
  aliases?: string[];
  /** Set when this call must ask whatever the rules allow, and why (e.g. no sandbox for the shell). */
  mustAsk?: string;
  /**
   * Only a person may approve this request when it asks: `--yes` does not, and without a terminal it is
   * refused. Set by the turn's trust record, since a model steered by outside text could otherwise use
   * a pre-approved run to carry data out.
   */
  personOnly?: boolean;
  /**
   * Where the action could carry data: a URL it opens, a page it types into, or anywhere (a shell on
   * the network, an open-world MCP tool). Once outside content entered the turn, the turn's trust
   * record makes such a request ask unless the user chose the destination (see `TurnTrust`).
   */
  sendsTo?: Egress;
  /** Who asks: the tool, its call, session and turn. Filled in by the turn running the tool, never by the tool. */
  tool?: string;
  callId?: string;
  sessionId?: string;
  turnId?: string;
}

/** One sub-command of a command line, as the rules match it. */
export interface TargetPart {
  /** Program name, then its arguments as the shell would pass them: `curl -s http://x`. */
  text: string;
  /** The same sub-command spelled the other ways a rule may name it: the path as written, the program's real path. */
  alternatives?: string[];
  /** Spellings a deny rule is matched against but an allow never is (git's subcommand without git's own options). */
  denyOnly?: string[];
  /**
   * Set when what this part runs cannot be read before it runs (`python -c`, a script file, a program
   * name made at run time), saying why: a broad rule never allows it on its own.
   */
  opaque?: string;
  /**
   * Set when the program is not known to run only itself (a launcher nobody listed, git with settings
   * or hooks that run programs, a build tool), saying why: under rules with a deny it is decided as
   * opaque, by a person; under rules without one, as any part.
   */
  unread?: string;
  /**
   * The program is known but its arguments come at run time (`xargs curl`): a deny that could match
   * some arguments denies it, an allow only when it allows any arguments.
   */
  argsUnknown?: boolean;
  /**
   * The whole command line, which could not be read into commands: a rule written for one command
   * (`echo *`) says nothing about it, since it may hold others. Only a deny, or a person, decides it.
   */
  wholeLine?: boolean;
  /**
   * What it runs depends on settings files the workspace or the line can change (git's config and
   * hooks, a program's rc file), which is why it is unread: an "always" given before they changed
   * never covers it, with or without a deny.
   */
  settings?: boolean;
}

export const PermissionDecision = z.enum(['allow', 'deny']);
export type PermissionDecision = z.infer<typeof PermissionDecision>;

/** How a permission request was decided: recorded with the call and shown on its card. */
export const PermissionRecord = z.object({
  action: z.string().describe('What the tool would do, e.g. file.write or shell.run.'),
  target: z.string().describe('What it touches: a path, a command, a URL.'),
  decision: PermissionDecision,
  by: z
    .enum(['rule', 'remembered', 'user', 'yes', 'sandbox', 'cancelled', 'no-host'])
    .describe(
      'rule: a configured or default rule; remembered: an earlier "always"; user: answered now; yes: --yes; sandbox: outside the workspace; cancelled: the turn stopped while asking; no-host: nobody could answer.',
    ),
  rule: z.string().optional().describe('The rule that decided, as `tool` or `tool › pattern`.'),
  parts: z
    .array(
      z.object({
        text: z.string(),
        decision: z.enum(['allow', 'ask', 'deny']),
        rule: z.string().optional(),
        opaque: z.string().optional().describe('Why what this part runs cannot be checked.'),
        remembered: z.boolean().optional().describe('Allowed by an earlier "always".'),
        needsPerson: z.boolean().optional().describe('Only a person may approve it: --yes does not.'),
      }),
    )
    .optional()
    .describe('For a command line: how each sub-command came out.'),
  reason: z
    .string()
    .optional()
    .describe('Why it was asked though the rules allow (a must-ask), or why --yes could not approve it.'),
});
export type PermissionRecord = z.infer<typeof PermissionRecord>;

/** Why an ask came back 'deny' when no rule decided it: the user said no, or the turn stopped while they were deciding. */
export type PermissionRefusal =
  | 'declined'
  | 'cancelled'
  /** An ask with nobody to answer it: a one-shot run without a terminal, a REPL whose input ended. */
  | 'unanswered'
  /** Only a person may approve it (what it runs cannot be read, and the rules deny something): --yes did not. */
  | 'needs-person';

/** What a tool may do: run, ask the user first, or never run. */
export const PermissionRule = z.enum(['allow', 'ask', 'deny']);
export type PermissionRule = z.infer<typeof PermissionRule>;
/** A tool's rule: one decision for every call, or globs over what the call touches, each with a decision. */
export const RuleValue = z
  .union([PermissionRule, z.record(z.string(), PermissionRule)])
  .describe(
    'One decision for every call of the tool, or decisions by pattern over what a call touches (`"curl *": "deny"`).',
  );
export type RuleValue = z.infer<typeof RuleValue>;
/** `permissions` in config.json: tool names or globs over them, to their rules. */
export const PermissionRules = z
  .record(z.string(), RuleValue)
  .describe('Tool names (or globs over them, `browser_*`) to their rules, as `permissions` in config.json.')
  .meta({ id: 'PermissionRules' });
export type PermissionRules = z.infer<typeof PermissionRules>;

/** An "always" answer, remembered across runs. */
export const RememberedAnswer = z
  .object({
    tool: z.string(),
    pattern: z.string().describe('What the answer covers: a target, or one part of a command line, exactly.'),
    decision: PermissionDecision,
    createdAt: z.number().describe('When it was answered, in milliseconds since the epoch.'),
  })
  .meta({ id: 'RememberedAnswer' });
export type RememberedAnswer = z.infer<typeof RememberedAnswer>;

/** The named rules with what a field holds: a described copy of a named schema would lose its name in the OpenAPI document. */
const rulesField = (description: string) => z.lazy(() => PermissionRules).describe(description);

/** The rules as a host shows and edits them: the user's, the defaults, the ones in effect, and the remembered answers. */
export const PermissionSettings = z
  .object({
    rules: rulesField("The user's own rules (config.json's `permissions`)."),
    defaults: rulesField('The built-in rules that apply where the user set none for the same key.'),
    effective: rulesField("The rules in effect: the defaults with the user's keys laid over them."),
    remembered: z.array(RememberedAnswer).describe('"Always" answers, kept across runs.'),
  })
  .meta({ id: 'PermissionSettings' });
export type PermissionSettings = z.infer<typeof PermissionSettings>;
