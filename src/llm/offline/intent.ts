/**
 * The shape of a rule. An intent looks at one user message and either proposes a tool call or a
 * reply; it never speaks a language itself (replies.ts does), so one rule serves Chinese and English.
 * Adding a tool is a new `Intent` in a table plus, if its output needs framing, a line in replies.ts.
 */
import type { Utterance } from './extract.js';
import type { Nearest } from './out-of-scope.js';
import type { Lookup } from './todo-lookup.js';

/** A tool call the planner wants to make, before it gets an id. */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
  /** A todo named by content: this call lists the todos, and the item found there is then finished or deleted. */
  lookup?: Lookup;
}

/** A reply without a tool, by kind; replies.ts renders it in the user's language. */
export type Reply =
  | { kind: 'greeting' }
  | { kind: 'help' }
  | { kind: 'thanks' }
  | { kind: 'ack' }
  | { kind: 'bye' }
  | { kind: 'mood' }
  | { kind: 'nameSaved'; name: string }
  | { kind: 'nameRecall' }
  | { kind: 'askCity' }
  | { kind: 'askExpression' }
  | { kind: 'askTodoContent' }
  | { kind: 'askTodoId'; action: 'done' | 'delete' }
  | { kind: 'missing'; tools: string[] }
  | { kind: 'codeRefusal' }
  | { kind: 'cannot'; near?: Nearest };

export type Outcome =
  | { kind: 'call'; call: PlannedCall }
  | { kind: 'reply'; reply: Reply; remember?: { key: string; value: string } };

/** What came before, as far as a follow-up needs it: the latest step's calls, or a question we asked. */
export type Previous =
  | { kind: 'calls'; calls: PlannedCall[] }
  | { kind: 'asked'; reply: Reply };

/** What a rule may read besides the message. Read-only: the planner applies effects. */
export interface PlanContext {
  prefs: { get(key: string): string | undefined };
  previous?: Previous;
}

/** One rule. Rules are tried in table order; the first that returns an outcome wins. */
export interface Intent {
  id: string;
  match(u: Utterance, ctx: PlanContext): Outcome | null;
}

/** Preference key under which the user's name is kept. */
export const NAME_KEY = 'user.name';

export const call = (name: string, args: Record<string, unknown> = {}): Outcome => ({ kind: 'call', call: { name, args } });
export const reply = (r: Reply): Outcome => ({ kind: 'reply', reply: r });

/** Tool-call arguments as an object; anything unparsable counts as none. */
export function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
