import { createInterface } from 'node:readline';
import type { App } from '../app.js';
import { maskKey, safeUrl } from '../config/config.js';
import type { Message } from '../store/messages-repo.js';
import { SessionError } from '../sessions/sessions.js';
import type { OneShotFlags } from './args.js';
import type { CliIo } from './one-shot.js';
import { pickSession } from './one-shot.js';
import { createReplAsks } from './permission-prompt.js';
import { attachPrinter, traceLine } from './printer.js';
import { sessionLine } from './sessions-command.js';
import { plainText } from './terminal-text.js';

const DEFAULT_HISTORY_TURNS = 10;
/** How long a message waits for a turn of the same session in another process. */
const SESSION_WAIT_MS = 60_000;


/** The messages of the last `n` turns: each user message with everything that answered it. */
export function lastTurns(messages: Message[], n: number): Message[] {
  const turnIds = [...new Set(messages.map((m) => m.turnId))].slice(-n);
  const keep = new Set(turnIds);
  return messages.filter((m) => keep.has(m.turnId));
}

/** Renders stored messages the way they were seen: text, and a trace line per tool call. */
export function renderHistory(messages: Message[], io: CliIo): string {
  const lines: string[] = [];
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'text') lines.push(m.role === 'user' ? io.style.bold(`› ${plainText(p.text)}`) : plainText(p.text));
      else if (p.type === 'tool') {
        const ok = p.state === 'completed';
        const output = p.output ?? (p.state === 'error' ? '' : 'interrupted');
        lines.push(traceLine({ tool: p.tool, input: p.input, ok, output, ms: p.ms ?? 0 }, io.style));
      }
    }
  }
  return lines.join('\n');
}

/** The interactive chat. Reads lines from stdin (a terminal or a pipe) until /exit or end of input. */
export async function runRepl(app: App, flags: OneShotFlags, io: CliIo, input: NodeJS.ReadableStream = process.stdin): Promise<number> {
  const interactive = Boolean((input as NodeJS.ReadStream).isTTY);
  let sessionId = pickSession(app, flags, io.text);
  const rl = createInterface({ input, output: interactive ? process.stdout : undefined, terminal: interactive });
  let running: AbortController | undefined;
  let lastInterrupt = 0;
  let atLineStart = true;

  const prompt = () => interactive && rl.prompt();
  const say = (s: string) => io.stdout(`${s}\n`);
  // Titles come from the model or the user's first words: shown as plain text.
  const titleOf = (s: { title: string; id: string }, fallback = s.id) => plainText(s.title) || fallback;
  const t = io.text;
  rl.setPrompt(io.style.bold('知行 › '));

  // Lines are read as they come, also while a turn runs: a line then answers the permission ask on
  // screen, if there is one, and otherwise waits its turn as the next message or command.
  const asks = createReplAsks({ app, io, rl, interactive, sessionId: () => sessionId, atLineStart: () => atLineStart });
  const lines: string[] = [];
  let inputEnded = false;
  let wake: (() => void) | undefined;
  rl.on('line', (raw) => {
    if (asks.take(raw)) return;
    lines.push(raw);
    wake?.();
  });
  rl.on('close', () => {
    inputEnded = true;
    asks.endOfInput();
    wake?.();
  });
  const nextLine = async (): Promise<string | undefined> => {
    while (!lines.length && !inputEnded) await new Promise<void>((resolve) => (wake = resolve));
    return lines.shift();
  };

  rl.on('SIGINT', () => {
    if (running) return running.abort();
    const now = Date.now();
    if (now - lastInterrupt < 2_000) return rl.close();
    lastInterrupt = now;
    say(io.style.dim(t.pressAgain));
    prompt();
  });

  // /switch N and /delete N mean the N the user last saw in /sessions, even if the order changed since.
  let shown: ReturnType<typeof app.sessions.list> | undefined;
  const sessionsList = () => app.sessions.list();
  const byNumberOrId = (arg: string) => {
    const list = shown ?? sessionsList();
    const n = Number(arg);
    return Number.isInteger(n) && n >= 1 ? list[n - 1] : list.find((s) => s.id === arg);
  };

  async function command(line: string): Promise<boolean> {
    const [cmd, ...rest] = line.slice(1).split(/\s+/);
    const arg = rest.join(' ').trim();
    switch (cmd) {
      case 'help':
        say(t.replHelp(DEFAULT_HISTORY_TURNS));
        break;
      case 'sessions': {
        const list = (shown = sessionsList());
        list.forEach((s, i) => say(sessionLine(s, i + 1, s.id === sessionId, io)));
        if (!list.length) say(t.noSessions);
        break;
      }
      case 'new':
        sessionId = app.sessions.create(arg).id;
        say(t.newSession(arg));
        break;
      case 'switch': {
        const s = byNumberOrId(arg);
        if (!s) say(t.noSuchSession(arg));
        else {
          sessionId = s.id;
          say(t.switched(titleOf(s)));
        }
        break;
      }
      case 'history': {
        const n = arg ? Number(arg) : DEFAULT_HISTORY_TURNS;
        if (!Number.isInteger(n) || n < 1) say(t.historyUsage);
        else say(renderHistory(lastTurns(app.sessions.history(sessionId), n), io) || t.noMessages);
        break;
      }
      case 'delete': {
        const s = byNumberOrId(arg);
        if (!s) say(t.noSuchSession(arg));
        else if (!app.sessions.get(s.id)) say(t.goneSession(arg));
        else {
          await app.sessions.delete(s.id);
          say(t.deleted(titleOf(s)));
          if (s.id === sessionId) sessionId = app.sessions.mostRecent()?.id ?? app.sessions.create().id;
        }
        break;
      }
      case 'rename':
        if (!arg) say(t.renameUsage);
        else say(t.renamed(plainText(app.sessions.rename(sessionId, arg).title)));
        break;
      case 'model': {
        const c = app.config;
        say(app.llm.mode === 'offline'
          ? t.offlineModel
          : plainText(`${c.provider} · ${c.model} · ${safeUrl(c.baseUrl ?? '')}${c.apiKey ? ` · ${t.key} ${maskKey(c.apiKey)}` : ''}`));
        break;
      }
      case 'exit':
      case 'quit':
        return false;
      default:
        say(t.unknownCommand(cmd ?? ''));
    }
    return true;
  }

  async function turn(text: string) {
    running = new AbortController();
    const write = (s: string) => {
      io.stdout(s);
      atLineStart = s.endsWith('\n');
    };
    const detach = attachPrinter({ bus: app.bus, sessionId, write, style: io.style, showActions: true, markdown: io.markdown, live: io.live });
    try {
      await app.sessions.send(sessionId, text, {
        signal: running.signal,
        // Another process mid-turn in this session: wait for it (Ctrl-C gives up), then go on.
        waitMs: SESSION_WAIT_MS,
        onWait: (pid) => io.stderr(io.style.dim(`${t.waitingForSession(pid)}\n`)),
      });
    } finally {
      detach();
      running = undefined;
    }
  }

  if (interactive) {
    const s = app.sessions.get(sessionId);
    say(io.style.dim(t.banner(app.llm.mode === 'offline' ? t.offline : plainText(`${app.llm.provider} · ${app.llm.model}`), (s && plainText(s.title)) || t.newSessionLabel)));
  }
  prompt();
  // Lines are handled one at a time, in order, even when piped in faster than turns finish.
  for (let raw = await nextLine(); raw !== undefined; raw = await nextLine()) {
    const line = raw.trim();
    if (line) {
      io.follow?.(line);
      try {
        if (line.startsWith('/')) {
          if (!(await command(line))) break;
        } else await turn(line);
      } catch (err) {
        if (err instanceof SessionError) io.stderr(`${io.errorText?.(err) ?? err.message}\n`);
        else throw err;
      }
    }
    prompt();
  }
  asks.stop();
  rl.close();
  return 0;
}
