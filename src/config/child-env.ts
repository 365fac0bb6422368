/**
 * The environment for a `zhixing` this process starts (`--mcp`'s `zhixing mcp serve`): this one's,
 * whole, so the child reads the same settings (home, rules, shell, key for redaction) as its parent.
 */
export function childEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return env;
}
