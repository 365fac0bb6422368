import type { McpTransportKind } from '../config/mcp-settings.js';

/** What the command line asks for, as args.ts and mcp-args.ts read it; main.ts runs it. */
export interface OneShotFlags {
  json: boolean;
  showActions: boolean;
  session?: string;
  new: boolean;
  offline: boolean;
  yes: boolean;
  mcp: boolean;
  /** `--model NAME`: the model for this run only; nothing is saved. */
  model?: string;
}

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  /**
   * No message: the REPL on a terminal; with standard input piped in, that input is the message.
   * `chat` (from `zhixing chat`) is the REPL whatever standard input is: lines piped in are typed lines.
   */
  | { kind: 'repl'; flags: OneShotFlags; chat: boolean }
  | { kind: 'ask'; message: string; flags: OneShotFlags }
  | { kind: 'sessions'; json: boolean }
  /** `zhixing undo [--session ID|N] [--json]`: the workspace back to before the session's last changing turn. */
  | { kind: 'undo'; session?: string; json: boolean }
  | { kind: 'config'; json: boolean; offline: boolean; model?: string }
  | { kind: 'serve'; host: string; port: number; offline: boolean }
  | { kind: 'unavailable'; name: string }
  | McpCommand
  /** What is wrong, in English (`message`) and Chinese (`zh`). */
  | { kind: 'usage-error'; message: string; zh: string };

/** `zhixing mcp …`: manage the servers Zhixing connects to, or be one. */
export type McpCommand =
  /** `mcp serve [--yes] [--offline]`: Zhixing's tools over stdio; `--yes` lets tools that would ask run. */
  | { kind: 'mcp'; action: 'serve'; yes: boolean; offline: boolean }
  /** `mcp add NAME -- CMD [ARGS…]` or `mcp add --transport http|sse NAME URL`, with `-e K=V` and `-H "K: V"`. */
  | {
      kind: 'mcp';
      action: 'add';
      name: string;
      transport: McpTransportKind;
      command?: string;
      args: string[];
      url?: string;
      env: Record<string, string>;
      headers: Record<string, string>;
      timeoutMs?: number;
      /** `--max-total MS`: a call's whole limit, whatever progress the server reports. */
      maxTotalMs?: number;
    }
  | { kind: 'mcp'; action: 'list'; json: boolean }
  | { kind: 'mcp'; action: 'remove' | 'enable' | 'disable'; name: string };
