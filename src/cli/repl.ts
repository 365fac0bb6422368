import { errorText } from '../i18n.js';
import { join } from 'node:path';
import type { App } from '../app.js';
import { createModelCatalog } from '../llm/model-catalog.js';
import { SessionError } from '../sessions/sessions.js';
import { isStorageFailure, toStoreError } from '../store/store-error.js';
import type { OneShotFlags } from './command.js';
import { openInputHistory, type InputHistory } from './input-history.js';
import type { CliIo } from './cli-io.js';
import { pickSession } from './one-shot.js';
import { createReplAsks, type ReplAsks } from './permission-prompt.js';
import { attachPrinter } from './printer.js';
import { createSlashCommands } from './repl-commands.js';
import {
  createPipedInput,
  createTerminalInput,
  entryMessage,
  type ReplInput,
  type ReplInputHandlers,
} from './repl-input.js';
import { followLanguage } from './messages.js';
import { replText } from './repl-text.js';
import { plainText } from './terminal-text.js';
import { noSandboxText } from './sandbox-notice.js';
import { failureNotices } from './mcp-repl.js';

/** How long a message waits for a turn of the same session in another process. */
const SESSION_WAIT_MS = 60_000;
/** A second Ctrl-C at an empty prompt within this long quits. */
const QUIT_PRESS_MS = 2_000;
/** The input history, in $ZHIXING_HOME. */
const HISTORY_FILE = 'history';

/** The message an entry sends: a one-line entry trimmed; one of several lines keeps its indentation. */
function messageText(entry: string): string {
  const text = entryMessage(entry);
  return text.includes('\n') ? text.replace(/^(?:[ \t]*\n)+/, '').trimEnd() : text.trim();
}

/**
 * The interactive chat. Reads entries from a terminal (through the line editor) or lines from a pipe,
 * until /exit, Ctrl-D, two Ctrl-C at an empty prompt, or the end of input.
 */
export async function runRepl(
  app: App,
  flags: OneShotFlags,
  io: CliIo,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WriteStream = process.stdout,
): Promise<number> {
  const interactive = Boolean((input as NodeJS.ReadStream).isTTY);
  const t = io.text;
  // The REPL's words follow the language the user last typed in, as the CLI's do.
  const rt = io.lang ? followLanguage(replText, io.lang) : replText(app.config.lang ?? app.config.uiLang);
  let sessionId = pickSession(app, flags);
  const mainPrompt = io.style.bold('知行 › ');
  const say = (s: string) => io.stdout(`${s}\n`);
  const history: InputHistory | undefined = interactive
    ? openInputHistory({
        path: join(app.config.home, HISTORY_FILE),
        onError: (err) => io.stderr(`zhixing: ${rt.historyUnsaved(plainText(err.message))}\n`),
      })
    : undefined;

  // Entries are read as they come, also while a turn runs: one then answers the permission ask on
  // screen, if there is one, and otherwise waits its turn as the next message or command.
  const entries: string[] = [];
  let inputEnded = false;
  let wake: (() => void) | undefined;
  const nextEntry = async (): Promise<string | undefined> => {
    while (!entries.length && !inputEnded) await new Promise<void>((resolve) => (wake = resolve));
    return entries.shift();
  };
  /** Stops the entry being worked on: a turn, or a command waiting (for a provider, for an answer). */
  let running: AbortController | undefined;
  let confirming = false;
  let lastInterrupt = 0;
  let atLineStart = true;
  let asks: ReplAsks | undefined;
  let line: ReplInput;

  const handlers: ReplInputHandlers = {
    onEntry(text) {
      if (asks?.take(text)) return;
      entries.push(text);
      wake?.();
    },
    onInterrupt({ cleared }) {
      // From a pipe, Ctrl-C stops the turn and the lines still to come.
      if (!line.interactive) {
        running?.abort();
        entries.length = 0;
        return line.close();
      }
      if (confirming) {
        // The question is answered "no".
        line.withdraw();
        entries.unshift('');
        return wake?.();
      }
      if (running) return running.abort();
      if (cleared) return void (lastInterrupt = 0);
      const now = Date.now();
      if (now - lastInterrupt < QUIT_PRESS_MS) return line.close();
      lastInterrupt = now;
      line.withdraw();
      say(io.style.dim(t.pressAgain));
      line.prompt(mainPrompt);
    },
    onEnd() {
      inputEnded = true;
      asks?.endOfInput();
      wake?.();
    },
  };

  const commands = createSlashCommands({
    app,
    io,
    rt,
    catalog: createModelCatalog(app.llm),
    session: () => sessionId,
    setSession: (id) => (sessionId = id),
    async ask(question) {
      confirming = true;
      try {
        if (line.interactive) line.prompt(question, 'answer');
        else io.stdout(`${question}\n`);
        return (await nextEntry()) ?? '';
      } finally {
        confirming = false;
      }
    },
  });

  line = interactive
    ? createTerminalInput(
        {
          input: input as NodeJS.ReadStream,
          output,
          history: () => history?.entries() ?? [],
          complete: (before) => commands.complete(before),
          searchLabel: rt.searchLabel,
        },
        handlers,
      )
    : createPipedInput(input, handlers, { blockUnclosed: rt.blockUnclosed, stderr: io.stderr });
  asks = createReplAsks({ app, io, line, interactive, sessionId: () => sessionId, atLineStart: () => atLineStart });

  async function turn(text: string, signal: AbortSignal) {
    const write = (s: string) => {
      io.stdout(s);
      atLineStart = s.endsWith('\n');
    };
    const detach = attachPrinter({
      bus: app.bus,
      sessionId,
      write,
      style: io.style,
      showActions: true,
      markdown: io.markdown,
      live: io.live,
      lang: io.lang,
    });
    try {
      const result = await app.sessions.send(sessionId, text, {
        signal,
        // Another process mid-turn in this session: wait for it (Ctrl-C gives up), then go on.
        waitMs: SESSION_WAIT_MS,
        onWait: (pid) => io.stderr(io.style.dim(`${t.waitingForSession(pid)}\n`)),
      });
      // The model service could not be reached at all: the offline planner still can help.
      if (result.error?.code === 'network') io.stderr(`${t.offlineHint}\n`);
    } finally {
      detach();
    }
  }

  try {
    if (interactive) {
      const s = app.sessions.get(sessionId);
      const model = app.llm.mode === 'offline' ? t.offline : plainText(`${app.llm.provider} · ${app.llm.model}`);
      say(io.style.dim(t.banner(model, (s && plainText(s.title)) || t.newSessionLabel)));
      // Once, at the start: without a sandbox every shell command asks, and the user should know why.
      const contained = await app.sandbox();
      if (!contained.ok)
        io.stderr(`${noSandboxText(contained, io.lang?.() ?? app.config.lang ?? app.config.uiLang)}\n`);
    }
    // MCP servers connect in the background, never holding up the first prompt; one that failed is
    // said before the next prompt.
    app.mcp.start();
    const mcpFailures = failureNotices(app.mcp);
    for (;;) {
      // The prompt starts a line of its own, even after a turn that ended mid-line (an error).
      if (!atLineStart) io.stdout('\n');
      atLineStart = true;
      const failed = mcpFailures(io.lang?.() ?? app.config.lang ?? app.config.uiLang);
      if (failed) io.stderr(`${io.style.red(failed)}\n`);
      if (interactive && !inputEnded) line.prompt(mainPrompt);
      const entry = await nextEntry();
      if (entry === undefined) break;
      const text = messageText(entry);
      if (!text) continue;
      // The CLI's words follow the language the user last wrote in.
      io.follow?.(text);
      history?.add(entry);
      running = new AbortController();
      try {
        // A command is one line; a block or a paste that starts with "/" is a message.
        if (text.startsWith('/') && !text.includes('\n') && entryMessage(entry) === entry) {
          if ((await commands.run(text, running.signal)) === 'exit') break;
        } else await turn(text, running.signal);
      } catch (err) {
        // A refused session (busy elsewhere, gone) or a failing disk: said, and the REPL goes on.
        const lang = io.lang?.() ?? app.config.uiLang;
        if (err instanceof SessionError) io.stderr(`${plainText(errorText(err, lang))}\n`);
        else if (isStorageFailure(err)) {
          const failure = toStoreError(err, app.config.dbPath);
          io.stderr(`${plainText(errorText(failure, lang))}\n`);
        } else throw err;
      } finally {
        running = undefined;
      }
    }
  } finally {
    asks.stop();
    line.close();
  }
  return 0;
}
