import { readFileSync } from 'node:fs';
import { ConfigError, detectUiLang, loadConfig } from '../config/config.js';
import { parseCommand } from './args.js';
import { helpText } from './help.js';
import { cliText } from './messages.js';
import { createStyle } from './printer.js';
import { jsonLine, plainText } from './terminal-text.js';
import type { CliIo } from './one-shot.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
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
  const lang = detectUiLang();
  const t = cliText(lang);
  if (cmd.kind === 'help') return stdout(helpText(lang)), 0;
  if (cmd.kind === 'version') return stdout(`zhixing ${version()}\n`), 0;
  if (cmd.kind === 'usage-error') return stderr(`zhixing: ${cmd.message}\n${t.usageHint}\n`), 2;
  if (cmd.kind === 'unavailable') return stderr(`zhixing: ${t.unavailable(cmd.name)}\n`), 2;
  if (cmd.kind === 'serve') {
    const { runServe } = await import('./serve.js');
    return runServe(cmd, { stdout, stderr });
  }
  if (cmd.flags.mcp) return stderr(`zhixing: ${t.unavailable('--mcp')}\n`), 2;

  let config;
  try {
    config = loadConfig({ offline: cmd.flags.offline });
  } catch (err) {
    // Settings are anyone's text (a cloned project's .env): shown, never obeyed by the terminal.
    if (err instanceof ConfigError) return stderr(`zhixing: ${plainText(err.message)}\n`), 2;
    throw err;
  }
  // An ignored file or a withheld key changes what this run does: say so before anything else.
  for (const warning of new Set(config.warnings)) stderr(`zhixing: ${plainText(warning)}\n`);
  const io: CliIo = {
    stdout,
    stderr,
    style: createStyle(!config.noColor && Boolean(process.stdout.isTTY)),
    text: cliText(config.uiLang),
  };

  const { createApp } = await import('../app.js');
  const { SessionError } = await import('../sessions/sessions.js');
  const { StoreError } = await import('../store/store-error.js');
  let app;
  try {
    app = await createApp(config, { autoApprove: cmd.flags.yes });
  } catch (err) {
    // A database from a newer version, a locked, full or read-only home: say so in one line.
    const message = err instanceof Error ? err.message : String(err);
    if (cmd.kind === 'ask' && cmd.flags.json) {
      const code = (err as { code?: unknown }).code;
      const error = { code: typeof code === 'string' ? code : 'startup', message };
      stdout(jsonLine({ session: null, mode: config.mode, reply: '', actions: [], error }));
    }
    stderr(`zhixing: ${plainText(message)}\n`);
    return 1;
  }
  // Retries are worth a line on stderr, so a slow answer is not a silent one.
  app.bus.on('llm.retry', (e) => stderr(io.style.dim(`${io.text.retry(e.attempt, e.maxRetries, e.status ? String(e.status) : e.reason, e.delayMs)}\n`)));
  app.bus.on('llm.waiting', (e) => stderr(io.style.dim(`${io.text.waiting(e.elapsedMs)}\n`)));
  try {
    if (cmd.kind === 'ask') {
      const { runOneShot } = await import('./one-shot.js');
      return await runOneShot(app, cmd.message, cmd.flags, io);
    }
    const { runRepl } = await import('./repl.js');
    return await runRepl(app, cmd.flags, io);
  } catch (err) {
    if (err instanceof SessionError) {
      stderr(`zhixing: ${plainText(err.message)}\n`);
      return err.code === 'not_found' || err.code === 'bad_request' ? 2 : 1;
    }
    if (err instanceof StoreError) return stderr(`zhixing: ${plainText(err.message)}\n`), 1;
    stderr(`zhixing: ${plainText(t.internalError(err instanceof Error ? err.message : String(err)))}\n`);
    return 1;
  } finally {
    try {
      app.close();
    } catch (err) {
      // Closing flushes the last writes; a disk that fails now has been reported already or is reported here.
      stderr(`zhixing: ${plainText(err instanceof Error ? err.message : String(err))}\n`);
    }
  }
}
