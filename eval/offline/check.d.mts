// Types for check.mjs, for the TypeScript test that uses it.
export declare const NOW_ISO: string;
export declare const NOW_ZONE: string;
export declare function numbersIn(text: string): number[];
export declare function dateAfter(days: number): { year: number; month: number; day: number; weekday: number };
export declare function dateRegex(days: number): RegExp;
export declare function weekdayRegex(days: number): RegExp;
export declare function matches(m: unknown, value: unknown, env?: { workspaces: string[] }): boolean;
export interface TurnSeen {
  reply: string;
  actions: Array<{ tool: string; input: unknown; ok: boolean; output: string }>;
}
export interface StateSeen {
  todos: Array<{ content: string; due: string | null; done: boolean }>;
  files: Record<string, string>;
}
export declare function check(
  c: { expect: Record<string, unknown> },
  turn: TurnSeen,
  state: StateSeen,
  env: { workspaces: string[] },
): string[];
