/** How much of a local server's stderr is kept: what it said last, before dying, is what explains it. */
const MAX_LINES = 20;
const MAX_LINE_CHARS = 500;
/** An unfinished line longer than this is cut: a server writing without newlines cannot grow it without bound. */
const MAX_PARTIAL_CHARS = 4_000;

const ESCAPES =
  /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The last lines a server wrote to stderr, without terminal escapes, bounded in count and size. */
export interface StderrTail {
  write(chunk: Buffer | string): void;
  lines(): string[];
  clear(): void;
}

export function createStderrTail(): StderrTail {
  // A line said again straight after itself is counted, not kept twice: a server restarted after each
  // crash says the same thing each time, and its one reason should not push everything else out.
  let kept: Array<{ text: string; count: number }> = [];
  let partial = '';
  const push = (line: string) => {
    const clean = line.replace(ESCAPES, '').trimEnd();
    if (!clean) return;
    const text = clean.length > MAX_LINE_CHARS ? `${clean.slice(0, MAX_LINE_CHARS - 1)}…` : clean;
    const last = kept.at(-1);
    if (last?.text === text) return void last.count++;
    kept.push({ text, count: 1 });
    if (kept.length > MAX_LINES) kept = kept.slice(-MAX_LINES);
  };
  const shown = () => kept.map((k) => (k.count > 1 ? `${k.text} (×${k.count})` : k.text));
  return {
    write(chunk) {
      const parts = (partial + chunk.toString()).split(/\r?\n/);
      partial = parts.pop() ?? '';
      if (partial.length > MAX_PARTIAL_CHARS) {
        push(partial);
        partial = '';
      }
      for (const line of parts.slice(-MAX_LINES)) push(line);
    },
    lines: () =>
      partial.trim() ? [...shown(), partial.replace(ESCAPES, '').slice(0, MAX_LINE_CHARS)].slice(-MAX_LINES) : shown(),
    clear() {
      kept = [];
      partial = '';
    },
  };
}
