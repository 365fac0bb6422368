import type { PermissionRequest, PermissionRule, PermissionRules, TargetPart } from '../contract/permission.js';
import { compileGlob, isToolGlob, type Glob } from './glob.js';
import { compileOptionDeny, type OptionDeny } from './option-denies.js';

/**
 * What applies before the user says otherwise. A user key replaces the default of the same key
 * (`"shell": {...}` replaces `"shell": "ask"`, though a call none of its patterns match still gets
 * the default); a broad user glob (`"*": "allow"`) does not, since an
 * exact tool name beats a glob: the shell, the browser and MCP tools keep asking until named.
 * Tools no rule names are allowed (inside the sandbox, which the service checks first).
 */
export const DEFAULT_PERMISSIONS: Readonly<PermissionRules> = Object.freeze({
  shell: 'ask',
  'browser_*': 'ask',
  // MCP tools are `<server>__<tool>`: they ask until the user trusts the server (`"github__*": "allow"`).
  '*__*': 'ask',
});

/** Decision for a tool no rule names. */
const FALLBACK: PermissionRule = 'allow';
/** Among equally specific rules the more careful one wins. */
const CAUTION: Record<PermissionRule, number> = { allow: 0, ask: 1, deny: 2 };
/** Stands for arguments nobody knows yet (`xargs curl`): only a wildcard matches it. */
const UNKNOWN_ARGS = '\uE000';

/** How one sub-command (or the whole target) came out. */
export interface PartVerdict {
  text: string;
  decision: PermissionRule;
  /** The rule that decided: `tool`, or `tool › pattern`. Absent when no rule named the tool. */
  rule?: string;
  /** Decided by an earlier "always". */
  remembered?: boolean;
  opaque?: string;
  /** Only a person may approve this ask: `--yes` does not, and without a terminal it is refused. */
  needsPerson?: boolean;
}

/** How a request came out under the rules, before anyone is asked. */
export interface Verdict {
  decision: PermissionRule;
  /** The rule that decided, for the record (`shell › curl *`, `file_write`). */
  rule?: string;
  /** Decided by an earlier "always" (all of it, for a command line). */
  remembered?: boolean;
  /** For a command line: every part and how it came out. */
  parts?: PartVerdict[];
  needsPerson?: boolean;
  /** Why it asks though the rules allow, or why only a person may approve it. */
  reason?: string;
}

export interface EvaluateOptions {
  /** True when the user answered "always" for this tool and exactly this text (a target, or a part's text). */
  remembered?: (text: string) => boolean;
}

interface CompiledRule {
  toolKey: string;
  exactTool: boolean;
  pattern: Glob;
  decision: PermissionRule;
  /** A plain `tool: decision`, which acts as the pattern `*`. */
  toolLevel: boolean;
  /** For a deny over a listed program's options: the same options spelled any other way (see option-denies.ts). */
  options?: OptionDeny;
}

/** The defaults with the user's keys laid over them. */
export function withDefaults(rules: PermissionRules): PermissionRules {
  return { ...DEFAULT_PERMISSIONS, ...rules };
}

/** Every rule whose tool key names `tool`, as compiled patterns. */
function rulesFor(rules: PermissionRules, tool: string): CompiledRule[] {
  const out: CompiledRule[] = [];
  for (const [toolKey, value] of Object.entries(rules)) {
    const exactTool = !isToolGlob(toolKey);
    if (exactTool ? toolKey !== tool : !compileGlob(toolKey).test(tool)) continue;
    if (typeof value === 'string')
      out.push({ toolKey, exactTool, pattern: compileGlob('*'), decision: value, toolLevel: true });
    else {
      for (const [p, decision] of Object.entries(value)) {
        const options = decision === 'deny' ? compileOptionDeny(p) : undefined;
        out.push({
          toolKey,
          exactTool,
          pattern: compileGlob(p),
          decision,
          toolLevel: false,
          ...(options ? { options } : {}),
        });
      }
    }
  }
  return out;
}

/** Exact tool key over a tool glob, then the longer pattern, then the longer tool key, then the more careful decision. */
function moreSpecific(a: CompiledRule, b: CompiledRule): boolean {
  const ka = [Number(a.exactTool), a.pattern.source.length, a.toolKey.length, CAUTION[a.decision]];
  const kb = [Number(b.exactTool), b.pattern.source.length, b.toolKey.length, CAUTION[b.decision]];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! > kb[i]!;
  return false;
}

const ruleName = (r: CompiledRule) => (r.toolLevel ? r.toolKey : `${r.toolKey} › ${r.pattern.source}`);

/**
 * Whether a rule covers a part whose arguments are not known yet. A deny covers it when it could
 * match some arguments (its literal start agrees with the program and the known arguments); allow
 * and ask only when they match whatever the arguments are.
 */
function coversUnknownArgs(rule: CompiledRule, text: string): boolean {
  if (rule.decision !== 'deny') return rule.pattern.test(`${text} ${UNKNOWN_ARGS}`);
  if (rule.pattern.test(text)) return true;
  // What is known is the text before the first word made at run time (`git $P`: `git `).
  const cut = text.search(/[$`]/);
  const known = cut >= 0 ? text.slice(0, cut) : `${text} `;
  return known.startsWith(rule.pattern.prefix) || rule.pattern.prefix.startsWith(known);
}

/**
 * Decides one text and its other spellings: deny from any spelling wins, else the most specific rule.
 * For a command (`command`), a deny over options also covers their other spellings; an allow never does.
 */
function decide(
  rules: CompiledRule[],
  spellings: string[],
  argsUnknown: boolean,
  defaults: CompiledRule[] = [],
  command = false,
): { decision: PermissionRule; rule?: CompiledRule } {
  let deny: CompiledRule | undefined;
  let best: CompiledRule | undefined;
  for (const rule of rules) {
    const hit = spellings.some(
      (s) =>
        (argsUnknown ? coversUnknownArgs(rule, s) : rule.pattern.test(s)) ||
        (command && rule.options?.covers(s, argsUnknown) === true),
    );
    if (!hit) continue;
    if (rule.decision === 'deny') {
      if (!deny || moreSpecific(rule, deny)) deny = rule;
    } else if (!best || moreSpecific(rule, best)) best = rule;
  }
  if (deny) return { decision: 'deny', rule: deny };
  if (best) return { decision: best.decision, rule: best };
  // Nothing the user wrote matches (a shell map without "*"): the tool's default decides, not "allow".
  return defaults.length ? decide(defaults, spellings, argsUnknown, [], command) : { decision: FALLBACK };
}

function decidePart(
  rules: CompiledRule[],
  defaults: CompiledRule[],
  part: TargetPart,
  hasDeny: boolean,
  options: EvaluateOptions,
): PartVerdict {
  const spellings = [part.text, ...(part.alternatives ?? [])];
  const found = decide(rules, spellings, part.argsUnknown === true, defaults, true);
  // Spellings that may only refuse (`git -C . push` read as `git push`): a deny over them stands, an allow does not.
  const refusing = part.denyOnly?.length
    ? decide(
        rules.filter((r) => r.decision === 'deny'),
        part.denyOnly,
        part.argsUnknown === true,
        [],
        true,
      )
    : undefined;
  const { decision, rule } = refusing?.decision === 'deny' ? refusing : found;
  // Closed world: with a deny among the rules, a program not known to run only itself could be
  // running what the deny names, so it counts as opaque; without one there is nothing it could hide.
  const opaque = part.opaque ?? (hasDeny ? part.unread : undefined);
  const base = { text: part.text, ...(rule ? { rule: ruleName(rule) } : {}), ...(opaque ? { opaque } : {}) };
  if (decision === 'deny') return { ...base, decision };
  // An "always" is the user's word on exactly this text, read as it was then; only a deny outranks it. It
  // never speaks for a part whose effect cannot be read (a workspace file named like a program, git whose
  // settings now run programs): the same text may do something else each time.
  if (decision === 'ask' && !opaque && !part.settings && options.remembered?.(part.text))
    return { ...base, decision: 'allow', remembered: true };
  // For a part that is only unread (`git p`, an alias), an allow naming just the program (`git *`) is broad
  // too: it was written for git's own subcommands, not for whatever a setting makes of one.
  const programOnly = !part.opaque && rule !== undefined && !rule.pattern.prefix.trim().includes(' ');
  if (
    opaque &&
    (decision === 'ask' || !rule || rule.toolLevel || rule.pattern.broad || programOnly || part.wholeLine)
  ) {
    // What it runs cannot be read, so it could be running what a deny names: a person must look at it.
    return { ...base, decision: 'ask', ...(hasDeny ? { needsPerson: true } : {}) };
  }
  return { ...base, decision };
}

/**
 * Decides a request under `rules` (the user's, defaults already merged: see `withDefaults`).
 * A command line (`request.parts`) is decided part by part: deny if any part is denied, else ask if any
 * asks, else allow. `mustAsk` lifts an allow to an ask. Pure: the sandbox and the asking are the service's.
 */
export function evaluate(
  rules: PermissionRules,
  tool: string,
  request: Pick<PermissionRequest, 'target' | 'parts' | 'mustAsk' | 'aliases' | 'personOnly'>,
  options: EvaluateOptions = {},
): Verdict {
  const compiled = rulesFor(rules, tool);
  const defaults = rulesFor(DEFAULT_PERMISSIONS, tool);
  const hasDeny = compiled.some((r) => r.decision === 'deny');
  let verdict: Verdict;
  if (request.parts) {
    const parts = request.parts.length
      ? request.parts.map((p) => decidePart(compiled, defaults, p, hasDeny, options))
      : [decidePart(compiled, defaults, { text: '' }, hasDeny, options)];
    const worst = parts.find((p) => p.decision === 'deny') ?? parts.find((p) => p.decision === 'ask') ?? parts[0]!;
    const needsPerson = parts.some((p) => p.decision === 'ask' && p.needsPerson);
    verdict = {
      decision: worst.decision,
      ...(worst.rule ? { rule: worst.rule } : {}),
      ...(parts.every((p) => p.remembered) ? { remembered: true } : {}),
      parts,
      ...(needsPerson && worst.decision === 'ask'
        ? { needsPerson: true, reason: parts.find((p) => p.needsPerson)!.opaque }
        : {}),
    };
  } else {
    const spellings = [request.target, ...(request.aliases ?? [])];
    const { decision, rule } = decide(compiled, spellings, false, defaults);
    verdict = { decision, ...(rule ? { rule: ruleName(rule) } : {}) };
    if (decision === 'ask' && spellings.some((s) => options.remembered?.(s)))
      verdict = { ...verdict, decision: 'allow', remembered: true };
  }
  if (verdict.decision === 'allow' && request.mustAsk) {
    // The rules cannot waive a must-ask; an "always" for exactly this whole request can.
    if (options.remembered?.(request.target)) return { ...verdict, remembered: true };
    const { remembered: _r, ...rest } = verdict;
    verdict = { ...rest, decision: 'ask', reason: request.mustAsk };
  }
  // --yes may not answer it: a person must (see PermissionRequest.personOnly).
  if (verdict.decision === 'ask' && request.personOnly)
    return { ...verdict, needsPerson: true, reason: verdict.reason ?? request.mustAsk };
  return verdict;
}

/** The patterns an "always" answer keeps: the target, or for a command line the text of each part that asked. */
export function patternsToRemember(request: Pick<PermissionRequest, 'target' | 'parts'>, verdict: Verdict): string[] {
  // The verdict's parts are the request's, in order.
  const asking = verdict.parts?.filter((p) => p.decision === 'ask') ?? [];
  // No part asked (a must-ask lifted the whole line): the line itself is what the user approved.
  if (!asking.length) return [request.target];
  // A part whose effect cannot be read, or rests on settings that may change, is approved each time,
  // never for good (see decidePart).
  const lasting = verdict.parts!.filter((p, i) => p.decision === 'ask' && !p.opaque && !request.parts?.[i]?.settings);
  return [...new Set(lasting.map((p) => p.text))];
}

/** Not a tool name any server can be given (names are `[A-Za-z0-9_-]`), to ask the rules about a whole server. */
const ANY_SERVER_TOOL = '(any tool)';

/**
 * Whether the rules let every tool of an MCP server run without asking (`"<name>__*": "allow"`): asked
 * with a tool name no server can have, so a rule for one of its tools does not count.
 */
export function serverTrusted(effective: PermissionRules, server: string): boolean {
  return evaluate(effective, `${server}__${ANY_SERVER_TOOL}`, { target: ANY_SERVER_TOOL }).decision === 'allow';
}
