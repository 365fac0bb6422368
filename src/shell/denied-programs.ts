import type { PermissionRules } from '../contract/permission.js';
/**
 * The programs a shell rule map denies outright, for the sandbox to mask: `"curl *": "deny"` and
 * `"curl": "deny"` name curl whatever its arguments, so no copy of it needs to run at all. A rule
 * over some arguments only (`"git push *": "deny"`) is left to the rules, as is a name that is itself
 * a pattern (`"py*"`).
 */
export function programsDeniedOutright(rules: Readonly<Record<string, 'allow' | 'ask' | 'deny'>>): string[] {
  const names = new Set<string>();
  for (const [pattern, rule] of Object.entries(rules)) {
    if (rule !== 'deny') continue;
    const m = /^\s*([^\s*?[\]]+)(?:\s+\*)?\s*$/.exec(pattern);
    if (m) names.add(m[1]!);
  }
  return [...names];
}

/**
 * The programs to mask for the shell under a whole rule set: its own map and the maps of tool globs
 * that cover it (`"sh*"`, `"*"`). A plain `"shell": "deny"` needs no mask: nothing runs at all.
 */
export function maskedUnder(rules: PermissionRules, matchesShell: (key: string) => boolean): string[] {
  const names = new Set<string>();
  for (const [key, value] of Object.entries(rules)) {
    if (typeof value === 'string' || !matchesShell(key)) continue;
    for (const name of programsDeniedOutright(value)) names.add(name);
  }
  return [...names];
}
