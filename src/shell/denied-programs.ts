/**
 * The programs a shell rule map denies outright, for the sandbox to mask: `"curl *": "deny"` and
 * `"curl": "deny"` name curl whatever its arguments, so no copy of it needs to run at all. A rule
 * over some arguments only (`"git push *": "deny"`) is left to the rules, as is a name that is itself
 * a pattern (`"py*"`).
 */
export function programsDeniedOutright(rules: Record<string, 'allow' | 'ask' | 'deny'>): string[] {
  const names = new Set<string>();
  for (const [pattern, rule] of Object.entries(rules)) {
    if (rule !== 'deny') continue;
    const m = /^\s*([^\s*?[\]]+)(?:\s+\*)?\s*$/.exec(pattern);
    if (m) names.add(m[1]!);
  }
  return [...names];
}
