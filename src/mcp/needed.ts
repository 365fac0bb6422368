/**
 * The servers a message names, of those given: a one-shot waits for a server that is still
 * connecting only when the user asked for it by name ("ask github for my open issues"); any other
 * turn starts at once with the tools that are ready. Names match as words, case-insensitively, with
 * `-` and `_` read as spaces too (`web-search` matches "web search").
 */
export function serversNamed(message: string, servers: string[]): string[] {
  const text = message.toLowerCase();
  return servers.filter((name) => {
    const spellings = new Set([name.toLowerCase(), name.toLowerCase().replace(/[-_]+/g, ' ')]);
    return [...spellings].some((s) =>
      new RegExp(`(^|[^\\p{L}\\p{N}])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[^\\p{L}\\p{N}])`, 'u').test(text),
    );
  });
}
