import { readFileSync } from 'node:fs';
import { detectUiLang, forcedLang, loadConfig, type Config } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import { errorText, languageOf, type Lang } from '../i18n.js';
import { HISTORY_WINDOW } from '../agent/context.js';
import { MAX_MESSAGE_CHARS } from '../sessions/limits.js';
import { parseCommand } from './args.js';
import type { OneShotFlags } from './command.js';
import { helpText } from './help.js';
import { cliText, followingText } from './messages.js';
import { createStyle } from './style.js';
import { composeMessage, readPipedInput } from './stdin-input.js';
import { jsonLine, plainText } from './terminal-text.js';
import type { CliIo } from './cli-io.js';

/** An open pipe that says nothing for this long is taken to have nothing to say (a CI step's inherited stdin). */
const STDIN_FIRST_BYTE_WAIT_MS = 2_000;
/** More piped input than this is not read at all: far more than one message holds. */
const MAX_STDIN_BYTES = 1024 * 1024;
/** A message with piped input is fitted to what the model is sent of one message, so the mark where it was cut reaches the model. */
const PIPED_MESSAGE_CHARS = Math.min(MAX_MESSAGE_CHARS, HISTORY_WINDOW.maxPartChars);

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

type Out = (s: string) => void;

/** Words that name a command or a subcommand: they say nothing of the user's language. */
const COMMAND_WORDS = new Set([
  'ask',
  'chat',
  'config',
  'help',
  'sessions',
  'serve',
  'mcp',
  'eval',
  'add',
  'list',
  'remove',
  'undo',
]);

/** The language of the words given on the command line, options and command names aside. */
function argvLang(argv: string[], fallback: Lang): Lang {
  return languageOf(argv.filter((a) => !a.startsWith('-') && !COMMAND_WORDS.has(a)).join(' '), fallback);
}

/** The settings, or the exit code after saying on stderr, in `lang`, what is wrong with them. */
function configOrExit(options: { offline: boolean; model?: string }, lang: Lang, stderr: Out): Config | number {
  let config;
  try {
    config = loadConfig(options);
  } catch (err) {
    // Settings are anyone's text (a cloned project's .env): shown, never obeyed by the terminal.
    if (err instanceof ConfigError) return (stderr(`zhixing: ${plainText(errorText(err, lang))}\n`), 2);
    throw err;
  }
  // An ignored file or a withheld key changes what this run does: say so before anything else.
  for (const warning of new Set(config.warnings)) stderr(`zhixing: ${plainText(warning)}\n`);
  return config;
}

/**
 * What this run says, when it is not the REPL: the message, with standard input after it when some
 * is piped in; or standard input alone. A number is the exit code after saying why there is nothing to send.
 */
async function messageToSend(words: string | undefined, lang: Lang, io: CliIo): Promise<string | number> {
  const t = cliText(lang);
  const piped = await readPipedInput({
    firstByteWaitMs: STDIN_FIRST_BYTE_WAIT_MS,
    maxBytes: MAX_STDIN_BYTES,
    onSlow: () => io.stderr(io.style.dim(`${t.stdinStillReading}\n`)),
  });
  if (piped.kind === 'binary') return (io.stderr(`zhixing: ${t.stdinBinary}\n`), 2);
  if (piped.kind === 'silent' && words) io.stderr(io.style.dim(`${t.stdinSilent(STDIN_FIRST_BYTE_WAIT_MS)}\n`));
  const text = piped.kind === 'text' ? piped.text : '';
  if (!words && !text.trim())
    return (
      io.stderr(`zhixing: ${t.stdinNothing(piped.kind === 'silent' ? STDIN_FIRST_BYTE_WAIT_MS : undefined)}\n`),
      2
    );
  if (!text.trim()) return words!;
  const composed = composeMessage(
    words,
    { text, more: piped.kind === 'text' && piped.more },
    PIPED_MESSAGE_CHARS,
    t.stdinCutMark,
  );
  if (composed.cut)
    io.stderr(
      `zhixing: ${t.stdinCut(composed.cut.sent, composed.cut.total, composed.cut.more, PIPED_MESSAGE_CHARS)}\n`,
    );
  return composed.text;
}

/** The CLI entry. Returns the exit code: 0 done, 1 internal or model error, 2 bad usage. */
export async function main(argv: string[]): Promise<number> {
  // `zhixing … | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const stdout = (s: string) => void process.stdout.write(s);
  const stderr = (s: string) => void process.stderr.write(s);
  const cmd = parseCommand(argv);
  // ZHIXING_LANG, else the language of the message on the command line, else the locale's.
  const uiLang = detectUiLang();
  const lang = forcedLang() ?? argvLang(argv, uiLang);
  const t = cliText(lang);
  if (cmd.kind === 'help') return (stdout(helpText(lang)), 0);
  if (cmd.kind === 'version') return (stdout(`zhixing ${version()}\n`), 0);
  if (cmd.kind === 'usage-error')
    return (stderr(`zhixing: ${lang === 'zh' ? cmd.zh : cmd.message}\n${t.usageHint}\n`), 2);
  if (cmd.kind === 'unavailable') return (stderr(`zhixing: ${t.unavailable(cmd.name)}\n`), 2);
  if (cmd.kind === 'serve') {
    const { runServe } = await import('./serve.js');
    return runServe(cmd, { stdout, stderr, lang });
  }
  const ioFor = (config: Config, textLang: Lang): CliIo => ({
    stdout,
    stderr,
    style: createStyle(!config.noColor && Boolean(process.stdout.isTTY)),
    text: cliText(textLang),
  });
  if (cmd.kind === 'config' || cmd.kind === 'sessions') {
    const config = configOrExit(
      cmd.kind === 'config' ? { offline: cmd.offline, model: cmd.model } : { offline: false },
      lang,
      stderr,
    );
    if (typeof config === 'number') return config;
    const io = ioFor(config, config.uiLang);
    if (cmd.kind === 'config') {
      const { runConfigShow } = await import('./config-command.js');
      const { detectSandbox } = await import('../shell/sandbox.js');
      const { DEFAULT_PATH } = await import('../shell/env.js');
      const sandbox = await detectSandbox({
        searchPath: config.shell.env.PATH || DEFAULT_PATH,
        network: config.shell.network,
      });
      // From the settings alone: whether the endpoint answers is for the memory status (`/api/status`) to say.
      const embeddings = config.embedding
        ? { kind: 'remote' as const, model: config.embedding.model }
        : { kind: 'none' as const };
      return runConfigShow(config, cmd.json, io, config.uiLang, sandbox, embeddings);
    }
    const { runSessions } = await import('./sessions-command.js');
    try {
      return await runSessions(config, cmd.json, io);
    } catch (err) {
      // A database from a newer version, an unreadable home: one line.
      return (stderr(`zhixing: ${plainText(err instanceof Error ? err.message : String(err))}\n`), 1);
    }
  }
  if (cmd.kind === 'mcp') {
    const config = configOrExit({ offline: cmd.action === 'serve' && cmd.offline }, lang, stderr);
    if (typeof config === 'number') return config;
    if (cmd.action === 'serve') {
      const { runMcpServe } = await import('./mcp-serve.js');
      return runMcpServe(config, cmd, { stderr });
    }
    const { runMcpCommand } = await import('./mcp-command.js');
    return runMcpCommand(config, cmd, ioFor(config, config.uiLang));
  }
  if (cmd.kind === 'undo') {
    const config = configOrExit({ offline: false }, lang, stderr);
    if (typeof config === 'number') return config;
    const { runUndo } = await import('./undo-command.js');
    return runUndo(config, cmd, ioFor(config, config.uiLang));
  }
  const flags: OneShotFlags = cmd.flags;

  const config = configOrExit({ offline: flags.offline, model: flags.model }, lang, stderr);
  if (typeof config === 'number') return config;
  // With no message it is the REPL, on a terminal or with piped lines taken as typed ones (scripts
  // drive it so); piped input becomes context only for a message: `git diff | zhixing "review"`.
  // `… | zhixing --json` has no REPL to give lines to: the piped text is the one message.
  const interactive = cmd.kind === 'repl' && !(flags.json && !process.stdin.isTTY);
  if (interactive && flags.json) return (stderr(`zhixing: ${t.jsonNeedsMessage}\n${t.usageHint}\n`), 2);
  let message: string | undefined;
  // One run speaks one language: the one the message is in, unless ZHIXING_LANG says otherwise.
  // The REPL's follows what the user last typed.
  let textLang = config.lang ?? (cmd.kind === 'ask' ? languageOf(cmd.message, config.uiLang) : config.uiLang);
  if (!interactive) {
    const got = await messageToSend(cmd.kind === 'ask' ? cmd.message : undefined, textLang, ioFor(config, textLang));
    if (typeof got === 'number') return got;
    message = got;
    textLang = config.lang ?? languageOf(message, config.uiLang);
  }
  const following = followingText(textLang, config.lang);
  const io: CliIo = {
    ...ioFor(config, textLang),
    text: following.text,
    follow: following.follow,
    lang: following.lang,
  };

  const { createApp } = await import('../app.js');
  const { SessionError } = await import('../sessions/sessions.js');
  const { StoreError } = await import('../store/store-error.js');
  let app;
  try {
    // A skipped skill is found during a turn: on a terminal its line makes way for the spinner's.
    const warn = (line: string) =>
      io.live ? io.live.notice(`zhixing: ${plainText(line)}`) : stderr(`zhixing: ${plainText(line)}\n`);
    app = await createApp(config, { autoApprove: flags.yes, warn });
    // In the background: a turn that does not need the servers never waits for them.
    app.mcp.start();
  } catch (err) {
    // A database from a newer version, a locked, full or read-only home: say so in one line.
    const text = err instanceof Error ? err.message : String(err);
    if (message !== undefined && flags.json) {
      const code = (err as { code?: unknown }).code;
      const error = { code: typeof code === 'string' ? code : 'startup', message: text };
      stdout(jsonLine({ session: null, mode: config.mode, reply: '', actions: [], error }));
    }
    stderr(`zhixing: ${plainText(errorText(err, following.lang()))}\n`);
    return 1;
  }
  // Only a terminal loads the renderer and the spinner: a piped or --json run stays as lean as it was.
  if (!flags.json && !config.dumbTerminal && (process.stdout.isTTY || process.stderr.isTTY)) {
    const { loadTerminalOutput } = await import('./terminal-output.js');
    const errStyle = createStyle(!config.noColor && !config.dumbTerminal && Boolean(process.stderr.isTTY));
    const tty = await loadTerminalOutput({
      stdout: process.stdout,
      stderr: process.stderr,
      color: !config.noColor,
      dumb: config.dumbTerminal,
      text: io.text,
      style: errStyle,
    });
    io.markdown = tty.markdown;
    io.live = tty.live;
    // A question is about to be asked: the live lines make way (before the question is written).
    if (tty.live) app.bus.on('permission.asked', () => tty.live!.hide());
  }
  // Retries are worth a line on stderr, so a slow answer is not a silent one; on a terminal the
  // spinner says how long the model service has kept us waiting.
  app.bus.on('llm.retry', (e) => {
    const line = io.style.dim(
      io.text.retry(e.attempt, e.maxRetries, e.status ? String(e.status) : e.reason, e.delayMs),
    );
    if (io.live) io.live.notice(line);
    else stderr(`${line}\n`);
  });
  // A turn that could not keep a snapshot still runs; the user should know it cannot be undone.
  app.bus.on('error', (e) => {
    if (e.code !== 'snapshot_failed') return;
    const line = `zhixing: ${plainText(e.message)}`;
    if (io.live) io.live.notice(line);
    else stderr(`${line}\n`);
  });
  app.bus.on('llm.waiting', (e) =>
    io.live ? io.live.waiting(e.elapsedMs) : stderr(io.style.dim(`${io.text.waiting(e.elapsedMs)}\n`)),
  );
  let stopMcp: (() => Promise<void>) | undefined;
  try {
    if (flags.mcp) {
      const { toolsThroughMcp } = await import('./mcp-one-shot.js');
      try {
        stopMcp = await toolsThroughMcp(app);
      } catch (err) {
        // The tools' server would not start: nothing ran, and --json still gets its one object.
        const text = err instanceof Error ? err.message : String(err);
        if (message !== undefined && flags.json)
          stdout(
            jsonLine({
              session: null,
              mode: app.llm.mode,
              reply: '',
              actions: [],
              error: { code: 'mcp', message: text },
            }),
          );
        stderr(`zhixing: ${plainText(text)}\n`);
        return 1;
      }
    }
    if (message !== undefined) {
      const { runOneShot } = await import('./one-shot.js');
      return await runOneShot(app, message, flags, io);
    }
    const { runRepl } = await import('./repl.js');
    return await runRepl(app, flags, io);
  } catch (err) {
    if (err instanceof SessionError) {
      stderr(`zhixing: ${plainText(errorText(err, following.lang()))}\n`);
      return err.code === 'not_found' || err.code === 'bad_request' ? 2 : 1;
    }
    if (err instanceof StoreError) return (stderr(`zhixing: ${plainText(errorText(err, following.lang()))}\n`), 1);
    stderr(`zhixing: ${plainText(t.internalError(err instanceof Error ? err.message : String(err)))}\n`);
    return 1;
  } finally {
    await stopMcp?.();
    try {
      app.close();
    } catch (err) {
      // Closing flushes the last writes; a disk that fails now has been reported already or is reported here.
      stderr(`zhixing: ${plainText(err instanceof Error ? err.message : String(err))}\n`);
    }
  }
}
