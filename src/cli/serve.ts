import { errorText, type Lang } from '../i18n.js';
import { loadConfig } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import type { Command } from './command.js';
import { plainText } from './terminal-text.js';
import { noSandboxText } from './sandbox-notice.js';

type ServeCommand = Extract<Command, { kind: 'serve' }>;

interface ServeIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** The language to say what stopped the start in: ZHIXING_LANG, else the locale's. */
  lang: Lang;
}

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** The usual exit code for a process stopped by Ctrl-C, used when a second signal cuts shutdown short. */
const INTERRUPTED_EXIT = 130;
/** How often serve checks that the process that started it is still there. */
const PARENT_CHECK_MS = 1_000;

/** What to tell the user when the address cannot be taken. */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): string | undefined {
  if (err.code === 'EADDRINUSE')
    return `Port ${port} on ${host} is already in use (another Zhixing?). Stop it, or pick another port: zhixing serve --port ${port + 1}`;
  if (err.code === 'EACCES')
    return `Not allowed to listen on ${host}:${port}. Ports below 1024 need special rights; pick another with --port.`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return `${host} is not an address of this machine. Use 127.0.0.1, or an address this machine has.`;
  return undefined;
}

/**
 * `zhixing serve`: the HTTP API until SIGINT or SIGTERM, then a graceful stop (running turns are
 * aborted and recorded, streams end, the database is closed) and exit 0.
 * The server code is loaded only here, so other commands never pay for it.
 */
export async function runServe(cmd: ServeCommand, io: ServeIo): Promise<number> {
  // Read first: once the ready line is out, whoever started us may be gone before the next statement.
  const parent = process.ppid;
  let config;
  try {
    config = loadConfig({ offline: cmd.offline });
  } catch (err) {
    if (err instanceof ConfigError) return (io.stderr(`zhixing: ${plainText(errorText(err, io.lang))}\n`), 2);
    throw err;
  }
  for (const warning of new Set(config.warnings)) io.stderr(`zhixing: ${warning}\n`);
  const { checkServeConfig, ServeConfigError } = await import('../server/guards.js');
  try {
    // Before the database is opened: a refused setup should touch nothing.
    checkServeConfig(cmd.host, config.token);
  } catch (err) {
    if (err instanceof ServeConfigError) return (io.stderr(`zhixing: ${errorText(err, io.lang)}\n`), 2);
    throw err;
  }

  const { createApp } = await import('../app.js');
  const { createServer } = await import('../server/create-server.js');
  let app;
  try {
    app = await createApp(config, { warn: (line) => io.stderr(`zhixing: ${plainText(line)}\n`) });
  } catch (err) {
    // A damaged, full or read-only database: the server does not start, and says why in the user's language.
    return (io.stderr(`zhixing: ${plainText(errorText(err, io.lang))}\n`), 1);
  }
  let server;
  try {
    server = await createServer({
      app,
      host: cmd.host,
      port: cmd.port,
      token: config.token,
      log: (line) => io.stderr(`${plainText(line)}\n`),
    });
  } catch (err) {
    app.close();
    const message = listenError(err as NodeJS.ErrnoException, cmd.host, cmd.port);
    if (message) return (io.stderr(`zhixing: ${message}\n`), 1);
    throw err;
  }

  // MCP servers connect in the background: the API answers at once, and /api/mcp shows each one
  // connecting. Each failure is said on stderr once, as it happens, so none is silent.
  const lastState = new Map<string, string>();
  app.mcp.onChange((v) => {
    if (v.state === 'failed' && lastState.get(v.name) !== 'failed') {
      io.stderr(
        `zhixing: MCP server "${plainText(v.name)}" failed: ${plainText(v.error ?? '')
          .replace(/\s+/g, ' ')
          .slice(0, 300)}\n`,
      );
    }
    lastState.set(v.name, v.state);
  });
  app.mcp.start();
  const mode = config.mode === 'offline' ? 'offline mode' : `model ${config.provider}/${config.model}`;
  // One write, so a script reading the first line finds the rest with it.
  io.stdout(
    `Zhixing is serving on ${server.url} (${mode})\nAPI docs: ${server.url}/docs · stop with Ctrl-C\n` +
      (config.token ? 'Every request needs the header Authorization: Bearer $ZHIXING_TOKEN.\n' : ''),
  );
  // Said once, at the start, not awaited: shutting down must not wait for the trial run.
  void app.sandbox().then((contained) => {
    if (!contained.ok) io.stderr(`zhixing: ${noSandboxText(contained, config.uiLang)}\n`);
  });

  const signal = await new Promise<string>((resolve) => {
    for (const name of SHUTDOWN_SIGNALS) process.once(name, () => resolve(name));
    // Under `npm start` a supervisor's SIGTERM reaches npm and its shell, not always us: when the
    // process that started us goes away, stop as if told to, instead of serving on as an orphan.
    const orphanWatch = setInterval(() => process.ppid !== parent && resolve('parent gone'), PARENT_CHECK_MS);
    orphanWatch.unref();
  });
  const running = app.sessions.running().ids.length;
  io.stderr(
    `zhixing: ${signal}: stopping${running ? `, ending ${running} running turn${running > 1 ? 's' : ''}` : ''}…\n`,
  );
  // A second signal means "now": what is recorded so far stays; the turn is marked interrupted on the next start.
  for (const name of SHUTDOWN_SIGNALS) process.once(name, () => process.exit(INTERRUPTED_EXIT));
  try {
    await server.close();
  } finally {
    app.close();
  }
  io.stderr('zhixing: stopped.\n');
  return 0;
}
