/**
 * `/permissions` in the REPL: the rules in effect, grouped by tool (the user's marked, the defaults
 * said to be defaults), the remembered "always" answers numbered, and the subcommands that change
 * them. Every change goes through the permission service, which checks and saves it to config.json.
 */
import { say, type Lang } from '../i18n.js';
import { PermissionRulesError } from '../permission/rules-check.js';
import {
  defaultsOf,
  withoutRule,
  withRule,
  type RuleDecision,
  type RulesEditing,
  type ToolRule,
} from '../permission/rule-edits.js';
import { plainText } from './terminal-text.js';

const DECISIONS = new Set<RuleDecision>(['allow', 'ask', 'deny']);
const pad = (s: string, n: number) => s + ' '.repeat(Math.max(1, n - [...s].length));

function words(lang: Lang) {
  return {
    heading: say(lang, '权限规则（* 为你设置的，其余为默认）：', 'Permission rules (* yours; the rest are defaults):'),
    none: say(
      lang,
      '  （没有规则：工作区内的一切都允许。）',
      '  (No rules: everything inside the workspace is allowed.)',
    ),
    fallback: say(
      lang,
      '  没有规则的工具：allow（仅限工作区内）',
      '  Tools no rule names: allow (inside the workspace only)',
    ),
    remembered: say(
      lang,
      '记住的回答（/permissions forget N 忘记）：',
      'Remembered answers (/permissions forget N forgets one):',
    ),
    noRemembered: say(lang, '  （没有）', '  (none)'),
    usage: say(
      lang,
      '用法：/permissions [allow|ask|deny 工具 [模式…]] · /permissions remove 工具 [模式…] · /permissions forget N',
      'Usage: /permissions [allow|ask|deny TOOL [PATTERN…]] · /permissions remove TOOL [PATTERN…] · /permissions forget N',
    ),
    set: (rule: string, d: string) =>
      say(lang, `已设置：${rule} → ${d}（已保存到 config.json）。`, `Set: ${rule} → ${d} (saved to config.json).`),
    removed: (rule: string) =>
      say(lang, `已删除规则 ${rule}（已保存到 config.json）。`, `Removed the rule ${rule} (saved to config.json).`),
    noRule: (rule: string) => say(lang, `你没有设置规则 ${rule}。`, `You have no rule ${rule}.`),
    forgot: (tool: string, pattern: string) =>
      say(lang, `已忘记：${tool} 操作 ${pattern}。`, `Forgotten: ${tool} on ${pattern}.`),
    noNumber: (n: string, count: number) =>
      say(
        lang,
        `没有第 ${n} 个记住的回答（一共 ${count} 个）。`,
        `There is no remembered answer number ${n} (there ${count === 1 ? 'is 1' : `are ${count}`}).`,
      ),
    refused: (why: string) => say(lang, `没有保存：${why}`, `Not saved: ${why}`),
  };
}

/** The listing: one line per tool with one decision, a line per pattern under a tool with patterns. */
export function listPermissions(service: RulesEditing, lang: Lang): string {
  const w = words(lang);
  const rules = service.rules();
  const effective = service.effective();
  const defaults = defaultsOf(effective, rules);
  const lines = [w.heading];
  const tools = Object.keys(effective).sort();
  const width = Math.min(24, Math.max(8, ...tools.map((t) => [...t].length + 2)));
  const mark = (tool: string) => (tool in defaults ? say(lang, '（默认）', '(default)') : '*');
  for (const tool of tools) {
    const rule: ToolRule = effective[tool]!;
    const name = plainText(tool);
    if (typeof rule === 'string') {
      lines.push(`  ${pad(name, width)}${pad(rule, 6)}${mark(tool)}`);
      continue;
    }
    lines.push(`  ${name} ${mark(tool)}`);
    const pw = Math.min(32, Math.max(...Object.keys(rule).map((p) => [...p].length + 2)));
    for (const [pattern, d] of Object.entries(rule)) lines.push(`    ${pad(plainText(pattern), pw)}${d}`);
  }
  if (!tools.length) lines.push(w.none);
  lines.push(w.fallback, '', w.remembered);
  const kept = service.remembered();
  kept.forEach((r, i) => lines.push(`  ${i + 1}. ${plainText(r.tool)} ${plainText(r.pattern)} · ${r.decision}`));
  if (!kept.length) lines.push(w.noRemembered);
  return lines.join('\n');
}

/**
 * Runs `/permissions ARGS`. `args` is the rest of the line as typed: a pattern is everything after
 * the tool, spaces and all. Returns what to print and whether it is an error (stderr).
 */
export function permissionsCommand(service: RulesEditing, args: string, lang: Lang): { text: string; error?: boolean } {
  const w = words(lang);
  const trimmed = args.trim();
  if (!trimmed) return { text: listPermissions(service, lang) };
  const [verb = '', tool = ''] = trimmed.split(/\s+/);
  const pattern = patternAfter(trimmed, 2);
  const ruleName = (p?: string) => plainText(p === undefined ? tool : `${tool} › ${p}`);
  try {
    if (DECISIONS.has(verb as RuleDecision) && tool) {
      service.setRules(withRule(service.rules(), service.effective(), tool, verb as RuleDecision, pattern));
      return { text: w.set(ruleName(pattern), verb) };
    }
    if (verb === 'remove' && tool) {
      const { rules, removed } = withoutRule(service.rules(), tool, pattern);
      if (!removed) return { text: w.noRule(ruleName(pattern)), error: true };
      service.setRules(rules);
      return { text: w.removed(ruleName(pattern)) };
    }
    if (verb === 'forget' && tool && pattern === undefined) {
      const kept = service.remembered();
      const n = Number(tool);
      const entry = Number.isInteger(n) && n >= 1 ? kept[n - 1] : undefined;
      if (!entry) return { text: w.noNumber(plainText(tool), kept.length), error: true };
      service.forget(entry.tool, entry.pattern);
      return { text: w.forgot(plainText(entry.tool), plainText(entry.pattern)) };
    }
  } catch (err) {
    // The rules engine's sentence already says nothing was saved, in both languages; a failed save is worded here.
    if (err instanceof PermissionRulesError)
      return { text: plainText(lang === 'zh' ? err.zh : err.message), error: true };
    return { text: w.refused(plainText(err instanceof Error ? err.message : String(err))), error: true };
  }
  return { text: w.usage, error: true };
}

/** The text after the first `n` words, as typed (inner spaces kept); undefined when there is none. */
function patternAfter(text: string, n: number): string | undefined {
  const m = new RegExp(`^(?:\\S+\\s+){${n}}`).exec(text);
  const rest = m ? text.slice(m[0].length) : '';
  return rest === '' ? undefined : rest;
}
